import type { RequestActor } from './record';

/** An actor found, or why its key may no longer act. */
export type ActorLookup = { ok: true; actor: RequestActor } | { ok: false; reason: string };

/**
 * Where work done later on behalf of an API key (an import job) finds the key's actor with its
 * current access: provided by the authentication module (ApiKeyVerifier), so services below the
 * HTTP edge depend on this contract only.
 */
export abstract class ActorDirectory {
  abstract actorOf(apiKeyId: string): Promise<ActorLookup>;
}
