import { createRecord } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('secret fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('connectedAccounts tokens: encrypted at rest, clear in responses', async () => {
    const account = await createRecord(t.http, 'connectedAccounts', {
      accessToken: 'ya29.access',
      refreshToken: '1//refresh',
    });
    expect(account).toMatchObject({ accessToken: 'ya29.access', refreshToken: '1//refresh' });
    const [row] = await t.db.query('SELECT "accessToken", "refreshToken" FROM "connectedAccount" WHERE id = $1', [
      account.id,
    ]);
    expect(row.accessToken).toMatch(/^enc:v1:/);
    expect(row.accessToken).not.toContain('ya29');
    expect(row.refreshToken).not.toContain('1//refresh');
    await t.http.patch(`/connectedAccounts/${account.id}`, { accessToken: 'ya29.rotated' });
    expect((await t.http.get(`/connectedAccounts/${account.id}`)).body.data.connectedAccount.accessToken).toBe(
      'ya29.rotated',
    );
    const [rotated] = await t.db.query('SELECT "accessToken" FROM "connectedAccount" WHERE id = $1', [account.id]);
    expect(rotated.accessToken).toMatch(/^enc:v1:/);
    expect((await t.http.get('/connectedAccounts?filter=accessToken[eq]:ya29.rotated')).status).toBe(400);
  });

  it('webhooks.secret: accepted, stored, never returned anywhere', async () => {
    const created = await t.http.post('/webhooks', {
      targetUrl: 'https://93.184.216.34/crm',
      secret: 's3cr3t-value',
      operations: ['person.created'],
    });
    expect(created.status).toBe(201);
    const webhook = created.body.data.createWebhook;
    expect(webhook).not.toHaveProperty('secret');
    const responses = [
      await t.http.get(`/webhooks/${webhook.id}`),
      await t.http.get('/webhooks'),
      await t.http.patch(`/webhooks/${webhook.id}`, { secret: 'rotated-secret', description: 'x' }),
      await t.http.post('/webhooks/duplicates', { ids: [webhook.id] }),
      await t.http.post('/batch/webhooks', [
        { targetUrl: 'https://93.184.216.34/other', secret: 'another-secret', operations: ['person.created'] },
      ]),
      await t.http.delete(`/webhooks/${webhook.id}?soft_delete=true`),
    ];
    for (const res of responses) expect(res.text).not.toMatch(/secret"|s3cr3t|rotated-secret|another-secret/);
    const [row] = await t.db.query('SELECT secret FROM webhook WHERE id = $1', [webhook.id]);
    expect(row.secret).toBe('rotated-secret');
    expect((await t.http.get('/webhooks?filter=secret[eq]:x')).body.messages).toEqual([
      "field 'secret' does not exist in 'webhook' object",
    ]);
    expect((await t.http.post('/webhooks', { targetUrl: 'ftp://example.com' })).body.messages).toEqual([
      'targetUrl must be a public http(s) URL',
    ]);
  });
});
