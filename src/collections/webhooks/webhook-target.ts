import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import { isIP, LookupFunction } from 'node:net';
import type { AppConfig } from '../../core/config/app-config';

/**
 * Webhook targets cannot reach inside (API.md section 9; OWASP API7, server-side request
 * forgery): unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set, a target must be an http(s) URL whose
 * host is a public address or a name that resolves only to public addresses. Checked when a
 * targetUrl is written, and again on the address each delivery actually connects to.
 */
export const PUBLIC_TARGET_MESSAGE = 'targetUrl must be a public http(s) URL';

/** The IPv6 global unicast block (2000::/3): everything outside it is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Longest a create or update waits for the target's name to resolve. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * True for an address on the public internet: IPv4 outside the special ranges (loopback, RFC 1918
 * private, link-local with the cloud metadata 169.254.169.254, carrier-grade NAT, multicast,
 * broadcast, unspecified, documentation and reserved blocks), IPv6 global unicast (2000::/3)
 * outside the special ranges (NAT64, 6to4, Teredo, documentation...). An IPv4-mapped IPv6
 * address (`::ffff:127.0.0.1`) is judged as the IPv4 address it maps to.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  if (ip.range() !== 'unicast') return false;
  return ip.kind() === 'ipv4' || (ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/**
 * The host an http(s) URL connects to, as the socket sees it (an IPv6 literal without its
 * brackets; IPv4 in any form the URL parser accepts, `2130706433` or `0x7f.1`, normalised to
 * dotted decimal), or undefined for another scheme or no URL at all.
 */
export function targetHost(url: string | URL): string | undefined {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return host === '' ? undefined : host;
}

/** Every address a host name resolves to (the resolver a delivery's connection uses). */
export type ResolveAll = (host: string) => Promise<string[]>;

const resolveAll: ResolveAll = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * Whether `url` is a public http(s) target: an IP literal is judged as it is; a name must
 * resolve, and to public addresses only (one private answer is enough to refuse: the connection
 * could use it). A name that does not resolve (or not within 5 s) is refused too: nothing shows it
 * is public, and a delivery could not reach it either.
 */
export async function isPublicTarget(url: string, resolve: ResolveAll = resolveAll): Promise<boolean> {
  const host = targetHost(url);
  if (host === undefined) return false;
  if (isIP(host)) return isPublicAddress(host);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS);
  });
  try {
    const addresses = await Promise.race([resolve(host), timeout]);
    return addresses.length > 0 && addresses.every(isPublicAddress);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The webhooks collection's check of a written record (create, batch, upsert, update one or many,
 * MCP included): a targetUrl that is not public is a 400, unless private targets are allowed.
 */
export async function checkWebhookFields(fields: Record<string, unknown>, config: AppConfig): Promise<string[]> {
  const url = fields.targetUrl;
  if (typeof url !== 'string' || config.webhookAllowPrivateTargets) return [];
  return (await isPublicTarget(url)) ? [] : [PUBLIC_TARGET_MESSAGE];
}

/** A delivery refused without sending: its target is not an http(s) URL, or is (or resolved to) a non-public address. */
export class RefusedTargetError extends Error {
  override readonly name = 'RefusedTargetError';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for the sockets of deliveries: resolves as Node would, and fails the connection
 * with a RefusedTargetError when any answer is not public. The address checked is the one the
 * socket connects to, so a DNS answer that changed since the targetUrl was written cannot slip
 * through. (A socket given an IP literal never calls `lookup`: see `refusedTarget`.)
 */
export function publicOnlyLookup(lookup: Lookup = dnsLookup): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      if (refused || addresses.length === 0)
        return callback(
          new RefusedTargetError(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`),
          [],
        );
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Why a delivery to `url` is refused before any connection, if it is: not http(s), or (unless
 * private targets are allowed) an IP literal that is not public.
 */
export function refusedTarget(url: URL, allowPrivate: boolean): string | undefined {
  const host = targetHost(url);
  if (host === undefined) return `${url.protocol} is not http or https`;
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) return `${host} is not a public address`;
  return undefined;
}
