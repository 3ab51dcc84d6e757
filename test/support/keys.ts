import { Http, Json } from './http';
import type { TestApp } from './test-app';

/** A key of a new role with these grants (API.md section 14), and a client that sends it. */
export interface RoleKey {
  http: Http;
  token: string;
  keyId: string;
  roleId: string;
  name: string;
}

let counter = 0;

/** Creates a role with `permissions` (or an admin one) and a key pointing at it, through the API as an admin. */
export async function keyWithRole(
  t: TestApp,
  permissions: Json[],
  options: { admin?: boolean } = {},
): Promise<RoleKey> {
  counter += 1;
  const name = `role-${counter}-${Date.now().toString(36)}`;
  const role = await t.http.post('/roles?depth=0', { name, permissions, admin: options.admin ?? false });
  if (role.status !== 201) throw new Error(`creating a role: ${role.status} ${role.text}`);
  const roleId = role.body.data.createRole.id;
  const key = await t.http.post('/apiKeys?depth=0', {
    name: `key of ${name}`,
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    roleId,
  });
  if (key.status !== 201) throw new Error(`creating a key: ${key.status} ${key.text}`);
  const { id: keyId, token } = key.body.data.createApiKey;
  const http = new Http(t.baseUrl, token, (method, path, response) => t.validator.check(method, path, response));
  return { http, token, keyId, roleId, name: `key of ${name}` };
}

/** The error envelope of a 403 for a key (API.md sections 7 and 14). */
export const forbidden = (message: string) => ({ statusCode: 403, error: 'FORBIDDEN', messages: [message] });

/** The error envelope of a 400 with one message. */
export const badRequest = (...messages: string[]) => ({ statusCode: 400, error: 'BadRequestException', messages });
