import helmet, { HelmetOptions } from 'helmet';
import { Middleware, precomputedHeaders } from './request-hardening';

/**
 * helmet for JSON answers: the headers that still mean something when a browser is handed JSON.
 *   Strict-Transport-Security   HTTPS only, for the whole host
 *   X-Content-Type-Options      never sniffed into HTML or script
 *   Content-Security-Policy     `default-src 'none'; frame-ancestors 'none'`: nothing loads, nothing frames it
 *   X-Frame-Options: DENY       the same for browsers without frame-ancestors
 *   Cross-Origin-Resource-Policy: same-origin   no cross-site `no-cors` read of the JSON (Spectre)
 * Left out, as they only apply to documents (HTML pages, their navigations and subresources):
 * the page CSP, Cross-Origin-Opener-Policy, Origin-Agent-Cluster, Referrer-Policy,
 * X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies and X-XSS-Protection
 * — ~450 bytes per answer (the OWASP REST Security Cheat Sheet lists the same set for APIs).
 */
export const API_HELMET_OPTIONS: Readonly<HelmetOptions> = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * Security headers on every response: helmet's full default set on the documentation pages
 * (Swagger UI's HTML, scripts and styles under `documentsPrefix`), the API set above on
 * everything else. Both are worked out once (precomputedHeaders) and set as lists.
 */
export function securityHeaders(documentsPrefix: string): Middleware {
  const documents = precomputedHeaders(helmet());
  const api = precomputedHeaders(helmet(API_HELMET_OPTIONS));
  return (req, res, next) => (String(req.url).startsWith(documentsPrefix) ? documents : api)(req, res, next);
}
