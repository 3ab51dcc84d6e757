import { Client } from 'pg';
import { ChildServer, sleep } from '../support/child-server';
import { FeedChange, FeedStream, readPages } from './feed';
import { multipart, randomFile, Written } from './load';
import { WebhookReceiver } from './receiver';
import type { Json } from '../support/http';

/** The first few of a list of ids, for a failure message. */
const first = (ids: string[], n = 3, separator = ', ') => ids.slice(0, n).join(separator);

/** Differences between what was acknowledged and what is stored (a pure comparison, self-tested below). */
export function compareWrites(written: Written[], stored: Map<string, Json>): { lost: string[]; changed: string[] } {
  const lost: string[] = [];
  const changed: string[] = [];
  for (const w of written) {
    const s = stored.get(w.id);
    if (!s) lost.push(w.id);
    else if (
      s.name !== w.name ||
      s.employees !== w.employees ||
      (!w.uncertain && w.city !== null && s.address?.addressCity !== w.city)
    )
      changed.push(
        `${w.id}: acknowledged ${JSON.stringify([w.name, w.employees, w.city])}, stored ${JSON.stringify([s.name, s.employees, s.address?.addressCity])}`,
      );
  }
  return { lost, changed };
}

/**
 * Every acknowledged create is stored with its values and every acknowledged PATCH's city is the
 * record's (read through the load balancer); every acknowledged create's `company.created`
 * delivery reached the receiver, once (a second reception is allowed only as the documented
 * redelivery of a delivery leased by the killed instance, 60 s later).
 */
export async function checkWrites(
  lb: string,
  token: string,
  written: Written[],
  dbUrl: string,
  receiver: WebhookReceiver,
  webhookDeadline: number,
): Promise<{ problems: string[]; summary: string }> {
  const problems: string[] = [];
  const stored = new Map<string, Json>();
  for (let i = 0; i < written.length; i += 100) {
    const ids = written.slice(i, i + 100).map((w) => w.id);
    const filter = encodeURIComponent(`id[in]:[${ids.join(',')}]`);
    const res = await fetch(`${lb}/companies?depth=0&limit=200&filter=${filter}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) {
      problems.push(`reading back acknowledged writes answered ${res.status}`);
      continue;
    }
    for (const record of ((await res.json()) as Json).data.companies) stored.set(record.id, record);
  }
  const { lost, changed } = compareWrites(written, stored);
  if (lost.length) problems.push(`${lost.length} acknowledged creates lost: ${first(lost, 5)}`);
  if (changed.length)
    problems.push(`${changed.length} acknowledged writes not as acknowledged: ${first(changed, 3, '; ')}`);
  // the comparison itself can fail: a lost record and a changed one are seen
  if (written.length >= 2) {
    const tampered = new Map(stored);
    tampered.delete(written[0].id);
    tampered.set(written[1].id, { ...stored.get(written[1].id), employees: -1 });
    const seen = compareWrites(written.slice(0, 2), tampered);
    if (seen.lost.length !== 1 || seen.changed.length !== 1)
      problems.push('the write check did not see a tampered record');
  }
  const patched = written.filter((w) => w.city !== null && !w.uncertain).length;

  // webhooks: wait until each acknowledged create was delivered (leases of a killed dispatcher expire after 60 s)
  const missing = () => written.filter((w) => !receiver.byRecord.has(w.id));
  const waitStarted = Date.now();
  while (missing().length > 0 && Date.now() < webhookDeadline) await sleep(500);
  const waited = Date.now() - waitStarted;
  const notDelivered = missing();
  if (notDelivered.length)
    problems.push(
      `${notDelivered.length} acknowledged creates without a webhook delivery: ${first(
        notDelivered.map((w) => w.id),
        5,
      )}`,
    );
  const manyIds = [...receiver.byRecord].filter(([id, deliveries]) => id !== '?' && deliveries.size > 1);
  if (manyIds.length)
    problems.push(`${manyIds.length} records with more than one delivery id (one event, one outbox row)`);
  const duplicates = receiver.duplicates();
  const early = duplicates.filter((d) => d.times[1] - d.times[0] < 55_000);
  if (early.length)
    problems.push(
      `${early.length} deliveries received twice within 55 s (not a lease expiry): ${first(early.map((d) => d.id))}`,
    );
  // the outbox: one row per committed company.created, whatever the instances went through
  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const outbox = await db
    .query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM "webhookDelivery" GROUP BY status ORDER BY status`,
    )
    .finally(() => db.end());
  const rowsOf = Object.fromEntries(outbox.rows.map((r) => [r.status, r.n]));
  const outboxRows = outbox.rows.reduce((n, r) => n + r.n, 0);
  if (outboxRows < written.length)
    problems.push(`${outboxRows} outbox rows for ${written.length} acknowledged creates`);
  return {
    problems,
    summary:
      `writes: ${written.length} acknowledged creates all stored as acknowledged (${lost.length} lost, ${changed.length} changed), ${patched} records with an acknowledged PATCH checked; ` +
      `webhooks: ${written.length - notDelivered.length}/${written.length} creates delivered (waited ${Math.round(waited / 1000)} s), ${duplicates.length} received twice (${early.length} within 55 s); outbox ${JSON.stringify(rowsOf)}`,
  };
}

/**
 * Rate-limit counters shared through Redis: a fresh API key, 30 requests sent straight to the
 * instances in turn; RateLimit-Remaining must go down by exactly one each time (counters per
 * instance would each start from the limit).
 */
export async function checkSharedRateLimits(
  lb: string,
  token: string,
  servers: ChildServer[],
): Promise<{ problems: string[]; summary: string }> {
  const created = await fetch(`${lb}/apiKeys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `rate-${Date.now()}`, expiresAt: new Date(Date.now() + 3600_000).toISOString() }),
  });
  const key = ((await created.json()) as Json).data?.createApiKey?.token as string | undefined;
  if (created.status !== 201 || !key)
    return { problems: [`POST /apiKeys answered ${created.status}`], summary: 'no key' };
  const remaining: number[] = [];
  for (let i = 0; i < 30; i++) {
    const server = servers[i % servers.length];
    const res = await fetch(`${server.baseUrl}/companies?limit=1&depth=0`, {
      headers: { authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    remaining.push(res.status === 200 ? Number(res.headers.get('ratelimit-remaining')) : -res.status);
  }
  const consecutive = remaining.every((r, i) => i === 0 || r === remaining[i - 1] - 1);
  return {
    problems: consecutive ? [] : [`rate-limit counters not shared: RateLimit-Remaining ${remaining.join(',')}`],
    summary: `30 requests over ${servers.length} instances counted once each (RateLimit-Remaining ${remaining[0]} -> ${remaining[remaining.length - 1]})`,
  };
}

/** Differences between the changes a stream received and the pages' (a pure comparison, self-tested below). */
export function compareFeed(received: FeedChange[], paged: FeedChange[]): string[] {
  const problems: string[] = [];
  const ids = new Set(received.map((c) => c.id));
  const repeated = received.length - ids.size;
  if (repeated) problems.push(`${repeated} changes received more than once`);
  const missing = paged.filter((c) => !ids.has(c.id));
  if (missing.length)
    problems.push(`${missing.length} changes of the pages never received: ${first(missing.map((c) => c.id))}`);
  const pagedIds = new Set(paged.map((c) => c.id));
  const extra = received.filter((c) => !pagedIds.has(c.id));
  if (extra.length) problems.push(`${extra.length} changes received that the pages do not give`);
  if (problems.length === 0) {
    const at = paged.findIndex((c, i) => c.id !== received[i].id || c.json !== received[i].json);
    if (at >= 0) problems.push(`stream and pages differ at change #${at} (${paged[at].id} vs ${received[at].id})`);
  }
  return problems;
}

/**
 * The stream held through the restarts gave exactly the pages from the same head token (same
 * changes, same order, same content), and a `created` change of every record the load created
 * (companies and uploaded attachments).
 */
export async function checkChangeFeed(
  lb: string,
  token: string,
  stream: FeedStream,
  head: string,
  created: { companies: string[]; attachments: string[] },
): Promise<{ problems: string[]; summary: string }> {
  const paged = await readPages(lb, token, head);
  const problems = compareFeed(stream.changes, paged);
  const seen = (event: string) => new Set(stream.changes.filter((c) => c.eventName === event).map((c) => c.recordId));
  const companies = seen('company.created');
  const attachments = seen('attachment.created');
  const lost = [
    ...created.companies.filter((id) => !companies.has(id)),
    ...created.attachments.filter((id) => !attachments.has(id)),
  ];
  if (lost.length)
    problems.push(`${lost.length} created records without a created change on the stream: ${first(lost)}`);
  // the comparison itself can fail: a lost change, a repeat and a reordering are seen
  if (paged.length >= 3) {
    const [a, b, c] = paged;
    if (
      compareFeed([a, b], [a, b, c]).length !== 1 ||
      compareFeed([a, a, b, c], [a, b, c]).length !== 1 ||
      compareFeed([b, a, c], [a, b, c]).length !== 1
    )
      problems.push('the feed check did not see a lost, repeated or reordered change');
  }
  return {
    problems,
    summary: `change feed: ${stream.changes.length} changes received over the stream through HAProxy (pages from the same head: ${paged.length}), ${stream.reconnects} reconnects with Last-Event-ID after a stream ended (${stream.refused} attempts refused meanwhile), max latency ${stream.maxLatencyMs} ms; ${created.companies.length} created companies and ${created.attachments.length} uploaded attachments all on it`,
  };
}

/**
 * Files across instances (API.md section 16, S3 storage): one file uploaded through each
 * instance directly downloads byte-identically through each other instance directly.
 */
export async function checkFilesAcrossInstances(
  token: string,
  servers: ChildServer[],
  authorId: string,
): Promise<{ problems: string[]; summary: string }> {
  const problems: string[] = [];
  const headers = { authorization: `Bearer ${token}` };
  let downloads = 0;
  for (let i = 0; i < servers.length; i++) {
    const bytes = randomFile();
    const { body, contentType } = multipart(bytes, `direct-${i}.bin`, authorId);
    const res = await fetch(`${servers[i].baseUrl}/attachments?depth=0`, {
      method: 'POST',
      headers: { ...headers, 'content-type': contentType },
      body,
    });
    const id = ((await res.json()) as Json).data?.createAttachment?.id as string | undefined;
    if (res.status !== 201 || !id) {
      problems.push(`upload through instance ${i + 1} answered ${res.status}`);
      continue;
    }
    for (let j = 0; j < servers.length; j++) {
      if (j === i) continue;
      const got = await fetch(`${servers[j].baseUrl}/attachments/${id}/content`, { headers });
      const same = got.status === 200 && Buffer.from(await got.arrayBuffer()).equals(bytes);
      if (!same)
        problems.push(
          `file uploaded through instance ${i + 1}: download through instance ${j + 1} answered ${got.status}${got.status === 200 ? ' with other bytes' : ''}`,
        );
      else downloads += 1;
    }
  }
  return {
    problems,
    summary: `files across instances: ${servers.length} uploads, each through one instance, ${downloads}/${servers.length * (servers.length - 1)} downloads through the others byte-identical`,
  };
}
