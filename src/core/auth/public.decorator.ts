import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'crm:isPublic';

/**
 * Marks a route as reachable without an API key (documents and health only: they hold no records).
 * `'keyed'`: reachable without one, but a request that sends one gets it checked (401 when it is not
 * valid) and answered for that key (the OpenAPI document of a key, API.md section 14).
 */
export const Public = (mode: 'open' | 'keyed' = 'open') => SetMetadata(IS_PUBLIC, mode);
