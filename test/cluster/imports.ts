import { Client } from 'pg';
import { sleep } from '../support/child-server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers checked field by field

/** Rows of the import started on the instance that is then killed. */
export const IMPORT_ROWS = Number(process.env.CLUSTER_IMPORT_ROWS ?? 30_000);
const CITY = 'Clustertown';

async function jobOf(baseUrl: string, token: string, id: string): Promise<Json> {
  const res = await fetch(`${baseUrl}/imports/${id}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as Json).data?.import ?? {};
}

/**
 * Starts an `atomic=false` import of IMPORT_ROWS people on one instance (its worker is woken at
 * once, so it is the one that claims the job) and waits until the job runs there: the instance
 * is then killed, and another must finish it (API.md section 17: durability).
 */
export async function startImportOn(baseUrl: string, token: string): Promise<string> {
  const lines = ['name.firstName,emails.primaryEmail,city'];
  for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`C${i},c${i}@cluster-import.example,${CITY}`);
  const res = await fetch(`${baseUrl}/people/import?atomic=false`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: `${lines.join('\r\n')}\r\n`,
  });
  const id = ((await res.json()) as Json).data?.import?.id as string | undefined;
  if (res.status !== 202 || !id) throw new Error(`POST /people/import answered ${res.status}`);
  for (let waited = 0; waited < 30_000; waited += 50) {
    const job = await jobOf(baseUrl, token, id);
    if (job.state === 'running' && job.rows.read > 0) return id;
    if (job.state !== 'queued' && job.state !== 'running')
      throw new Error(`the import ended before the kill: ${job.state}`);
    await sleep(50);
  }
  throw new Error('the import did not start within 30 s');
}

/** Waits for the job through the load balancer, then checks every row is in once, with one change each. */
export async function checkImportFinished(
  lb: string,
  token: string,
  id: string,
  dbUrl: string,
): Promise<{ problems: string[]; summary: string }> {
  const started = Date.now();
  let job: Json = {};
  while (Date.now() - started < 180_000) {
    job = await jobOf(lb, token, id);
    if (['completed', 'failed', 'cancelled'].includes(job.state)) break;
    await sleep(250);
  }
  const pg = new Client({ connectionString: dbUrl });
  await pg.connect();
  try {
    const count = async (sql: string) => Number((await pg.query(sql, [CITY])).rows[0].n);
    const rows = await count('SELECT count(*) AS n FROM person WHERE city = $1');
    const distinct = await count('SELECT count(DISTINCT "emailsPrimaryEmail") AS n FROM person WHERE city = $1');
    const changes = await count(
      `SELECT count(*) AS n FROM "_changes" WHERE "eventName" = 'person.created' AND "record" ->> 'city' = $1`,
    );
    const problems: string[] = [];
    if (job.state !== 'completed')
      problems.push(`the import left on a killed instance ended ${job.state ?? 'nowhere'}: ${JSON.stringify(job)}`);
    if (job.rows?.created !== IMPORT_ROWS)
      problems.push(`the import created ${job.rows?.created} of ${IMPORT_ROWS} rows`);
    if (rows !== IMPORT_ROWS || distinct !== IMPORT_ROWS)
      problems.push(`the imported people: ${rows} rows, ${distinct} distinct, for ${IMPORT_ROWS} in the file`);
    if (changes !== IMPORT_ROWS)
      problems.push(`the imported people have ${changes} changes in the feed, not ${IMPORT_ROWS}`);
    const seconds = ((Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000).toFixed(1);
    return {
      problems,
      summary: `import of ${IMPORT_ROWS} rows started on the killed instance: ${job.state} by a survivor, ${rows} people (${distinct} distinct) and ${changes} changes, ${seconds} s from its start`,
    };
  } finally {
    await pg.end();
  }
}
