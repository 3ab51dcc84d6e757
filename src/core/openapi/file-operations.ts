import { getFieldDefinitions } from '../fields/field-definition';
import type { CollectionDefinition } from '../model/collection-definition';
import type { CollectionRoute } from '../routes/route-types';
import type { Schema } from './operation-parts';

/**
 * The OpenAPI pieces of files (API.md section 16) that the JSON routes do not have: the
 * multipart upload body of a create, the binary answer of a download (ranges, 304, 416) and the
 * answer of a signed link.
 */

/** The multipart form of an upload: the `file` part and every writable field as a text part. */
export function multipartUploadSchema(def: CollectionDefinition): Schema {
  const properties: Record<string, Schema> = {
    file: { type: 'string', format: 'binary', description: 'The file (exactly one part named file)' },
  };
  const required = ['file'];
  for (const field of getFieldDefinitions(def.create)) {
    if (field.readOnly || field.name === 'fullPath') continue;
    properties[field.name] = {
      type: 'string',
      ...(field.type === 'UUID' ? { format: 'uuid' } : {}),
      ...(field.name === 'name' ? { description: "Defaults to the file's name" } : {}),
    };
    if (!field.nullable && field.default === undefined) required.push(field.name);
  }
  return { type: 'object', required, properties };
}

const header = (description: string, schema: Schema = { type: 'string' }) => ({ description, schema });

/** Parameters and answers of a file route, beside those every operation gets. */
export function fileRouteParts(route: CollectionRoute): { parameters: Schema[]; responses: Schema } {
  if (route.answer === 'link') {
    const link = {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['url', 'expiresAt'],
          properties: {
            url: { type: 'string', format: 'uri', description: 'Downloads the file without a key until expiresAt' },
            expiresAt: { type: 'string', format: 'date-time' },
          },
        },
      },
    };
    return {
      parameters: [],
      responses: { 201: { description: 'A signed download link', content: { 'application/json': { schema: link } } } },
    };
  }
  const binary = { '*/*': { schema: { type: 'string', format: 'binary' } } };
  const headers = {
    'Content-Disposition': header('attachment, with the name (filename* for non-ASCII names, RFC 6266)'),
    ETag: header('From the checksum; send it back in If-None-Match'),
    'Accept-Ranges': header('bytes'),
    'X-Content-Type-Options': header('nosniff'),
    'Content-Security-Policy': header("default-src 'none'; sandbox"),
  };
  const query = (name: string, description: string) => ({
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'string' },
  });
  return {
    parameters: [
      {
        name: 'Range',
        in: 'header',
        required: false,
        description: 'One byte range, e.g. bytes=0-1023',
        schema: { type: 'string' },
      },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
      query('expires', 'Of a signed link (POST .../link): its expiry, epoch seconds'),
      query('signature', 'Of a signed link: its signature'),
    ],
    responses: {
      200: { description: 'The file, its Content-Type the detected type', headers, content: binary },
      206: {
        description: 'The requested range',
        headers: { ...headers, 'Content-Range': header('bytes <first>-<last>/<size>') },
        content: binary,
      },
      304: { description: 'Not modified (If-None-Match matches the ETag)' },
      416: { description: 'The range starts past the end of the file' },
    },
  };
}
