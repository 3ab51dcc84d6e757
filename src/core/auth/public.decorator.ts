import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'crm:isPublic';

/** Marks a route as reachable without an API key (documents and health only: they hold no records). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
