// node follow-changes.mjs: prints every change after the saved position, then follows the feed
/* global process, fetch, console, setTimeout -- Node 20 globals */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const base = process.env.CRM_URL ?? 'http://localhost:3000/rest';
const headers = { authorization: `Bearer ${process.env.CRM_TOKEN}` };
const get = async (path) => {
  const res = await fetch(base + path, { headers });
  if (res.status === 410) throw new Error('position expired: take a new export and start from its X-Changes-Token');
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return res.json();
};
let since = existsSync('position.txt') ? readFileSync('position.txt', 'utf8') : (await get('/changes/head')).data.token;
for (;;) {
  const page = await get(`/changes?since=${since}&limit=1000`);
  for (const c of page.data.changes)
    console.log(c.eventName, c.recordId, c.record ? JSON.stringify(c.record.name) : '(destroyed)');
  since = page.pageInfo.endCursor;
  writeFileSync('position.txt', since); // saved after applying: a restart resumes here
  if (!page.pageInfo.hasNextPage) await new Promise((r) => setTimeout(r, 1000));
}
