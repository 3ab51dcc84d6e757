import { Access, adminAccess } from './access';

/** A record as the API shows it (depth 0 plus any relation fields attached): field name → JSON value. */
export type ApiRecord = Record<string, unknown>;

/** A stored row as the driver returns it: column name → value. */
export type Row = Record<string, unknown>;

/** Who is calling: the API key behind the request, and what its role lets it do. */
export interface RequestActor {
  apiKeyId: string;
  apiKeyName: string;
  workspaceMemberId: string | null;
  access: Access;
  /**
   * Set on the writes of an import job (API.md section 17): their audit rows carry its id, and
   * each record event is sent to webhooks only when the job asked for `webhooks=records`.
   */
  importContext?: { importId: string; recordWebhooks: boolean };
}

/** The actor of writes the service makes on its own (the first API key, command-line tools): an admin. */
export const SYSTEM_ACTOR: RequestActor = {
  apiKeyId: '',
  apiKeyName: 'System',
  workspaceMemberId: null,
  access: adminAccess('System'),
};
