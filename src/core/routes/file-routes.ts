import type { CollectionRoute } from './route-types';

/**
 * The file routes of the collections whose records hold a stored file (`files: true`: attachments,
 * API.md section 16), besides the routes above; their create route (createOne) also takes a
 * multipart/form-data upload. The download answers the bytes (`file`: ranges, ETag); the link a
 * signed URL that downloads them without a key until it expires.
 */
export const FILE_ROUTES: readonly CollectionRoute[] = [
  {
    name: 'downloadFile',
    method: 'GET',
    path: '{plural}/{id}/content',
    params: [],
    answer: 'file',
    actions: ['read'],
    status: 200,
    signedLink: true,
  },
  {
    name: 'createFileLink',
    method: 'POST',
    path: '{plural}/{id}/link',
    params: [],
    answer: 'link',
    actions: ['read'],
    status: 201,
  },
];
