import { createRecord, validPayload, catalog } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The examples of the compatibility target's published API hold. */
describe('published examples', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('POST /messageChannels -> 201 createMessageChannel with connectedAccount and its arrays', async () => {
    const account = await createRecord(t.http, 'connectedAccounts', { handle: 'ops@acme.com' });
    const res = await t.http.post('/messageChannels', {
      handle: 'ops@acme.com',
      connectedAccountId: account.id,
      visibility: 'SHARE_EVERYTHING',
    });
    expect(res.status).toBe(201);
    const channel = res.body.data.createMessageChannel;
    expect(channel.connectedAccount).toMatchObject({ id: account.id, handle: 'ops@acme.com' });
    expect(channel.messageChannelMessageAssociations).toEqual([]);
    expect(channel.messageFolders).toEqual([]);
  });

  it('POST /batch/messages -> 201 createMessages, each with messageParticipants and messageChannelMessageAssociations', async () => {
    const thread = await createRecord(t.http, 'messageThreads');
    const res = await t.http.post('/batch/messages', [
      {
        headerMessageId: '<a@acme.com>',
        subject: 'Hello',
        text: 'Hi',
        messageThreadId: thread.id,
        receivedAt: '2026-11-20T08:00:00.000Z',
      },
      { headerMessageId: '<b@acme.com>', subject: 'Re: Hello', text: 'Hey', messageThreadId: thread.id },
    ]);
    expect(res.status).toBe(201);
    const messages = res.body.data.createMessages;
    expect(messages.map((m: { subject: string }) => m.subject)).toEqual(['Hello', 'Re: Hello']);
    for (const message of messages) {
      expect(message.messageParticipants).toEqual([]);
      expect(message.messageChannelMessageAssociations).toEqual([]);
      expect(message.messageThread).toMatchObject({ id: thread.id });
    }
  });

  it('POST /batch/viewFilters -> 201 createViewFilters', async () => {
    const view = await createRecord(t.http, 'views', { name: 'All companies' });
    const res = await t.http.post('/batch/viewFilters', [
      {
        fieldMetadataId: '3f2a0c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
        operand: 'Contains',
        value: 'acme',
        displayValue: 'acme',
        viewId: view.id,
      },
      { fieldMetadataId: '4f2a0c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b', operand: 'IsNotEmpty', viewId: view.id },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.data.createViewFilters).toHaveLength(2);
    expect(res.body.data.createViewFilters[0].view).toMatchObject({ id: view.id });
  });

  it('POST /auditLogs accepts free JSON objects for properties and context, and a plain string objectMetadataId', async () => {
    const body = {
      name: 'company.created',
      objectName: 'company',
      objectMetadataId: 'not-a-uuid-and-that-is-fine',
      properties: { after: { name: 'Acme', tags: ['a', 'b'], nested: { n: 1, ok: true } } },
      context: { apiKeyId: 'k-1', device: { os: 'linux' } },
    };
    const res = await t.http.post('/auditLogs', body);
    expect(res.status).toBe(201);
    expect(res.body.data.createAuditLog).toMatchObject(body);
    expect((await t.http.post('/auditLogs', { properties: [1, 2] })).status).toBe(400);
  });

  it('POST /connectedAccounts/duplicates -> companyDuplicates carrying messageChannels and calendarChannels', async () => {
    const owner = await createRecord(t.http, 'workspaceMembers');
    const a = await createRecord(t.http, 'connectedAccounts', {
      handle: 'sales@acme.com',
      provider: 'google',
      accountOwnerId: owner.id,
    });
    const b = await createRecord(t.http, 'connectedAccounts', {
      handle: 'SALES@acme.com',
      provider: 'Google',
      accountOwnerId: owner.id,
    });
    await createRecord(t.http, 'messageChannels', { connectedAccountId: b.id });
    await createRecord(t.http, 'calendarChannels', { connectedAccountId: b.id });
    const res = await t.http.post('/connectedAccounts/duplicates', { ids: [a.id] });
    expect(res.status).toBe(200);
    const [result] = res.body.data;
    expect(result.totalCount).toBe(1);
    expect(result.companyDuplicates[0]).toMatchObject({ id: b.id });
    expect(result.companyDuplicates[0].messageChannels).toHaveLength(1);
    expect(result.companyDuplicates[0].calendarChannels).toHaveLength(1);
    expect(result.connectedAccountDuplicates).toEqual(result.companyDuplicates);
  });

  it('every collection answers POST /<collection> with create<Object>', async () => {
    for (const meta of catalog.all()) {
      const res = await t.http.post(`/${meta.plural}?depth=0`, await validPayload(t.http, meta));
      expect({ plural: meta.plural, status: res.status }).toEqual({ plural: meta.plural, status: 201 });
      expect(res.body.data).toHaveProperty(`create${meta.def.pascal}`);
    }
  });
});
