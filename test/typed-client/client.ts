/**
 * A small program written against the types openapi-typescript generates from the served
 * document: if the document and the API disagree, it fails to compile or fails at run time.
 * Run by test/e2e/typed-client.e2e-spec.ts with BASE_URL and TOKEN.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema';

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`typed client: ${message}`);
}

async function main(): Promise<void> {
  const client = createClient<paths>({
    baseUrl: process.env.BASE_URL,
    headers: { Authorization: `Bearer ${process.env.TOKEN}` },
  });

  const created = await client.POST('/companies', {
    params: { query: { depth: 0 } },
    body: { name: 'Typed Co', employees: 12, domainName: { primaryLinkUrl: 'https://typed.example' } },
  });
  check(created.response.status === 201 && created.data, `create answered ${created.response.status}`);
  const company = created.data.data.createCompany;
  const id: string = company.id;
  check(company.domainName?.primaryLinkUrl === 'https://typed.example', 'create kept domainName');

  const listed = await client.GET('/companies', {
    params: { query: { filter: 'name[eq]:"Typed Co"', depth: 0, limit: 5 } },
  });
  check(
    listed.data?.data.companies.some((c) => c.id === id),
    'list with a filter finds the company',
  );
  check(listed.data?.totalCount === 1, 'totalCount is 1');

  const read = await client.GET('/companies/{id}', { params: { path: { id }, query: { depth: 1 } } });
  check(read.data?.data.company.employees === 12, 'get returns employees');
  check(Array.isArray(read.data?.data.company.people), 'depth 1 returns the people array');

  const updated = await client.PATCH('/companies/{id}', { params: { path: { id } }, body: { employees: 13 } });
  check(updated.data?.data.updateCompany.employees === 13, 'update changes employees');

  const deleted = await client.DELETE('/companies/{id}', { params: { path: { id } } });
  check(deleted.data?.data.deleteCompany.id === id, 'delete returns the id');

  const missing = await client.GET('/companies/{id}', { params: { path: { id } } });
  check(missing.response.status === 404 && missing.error?.error === 'NotFoundException', 'a deleted company is 404');
  // the import of a collection (a CSV body), its job waited for with Prefer: wait, then read by id
  const imported = await client.POST('/companies/import', {
    params: { query: { operation: 'upsert', dry_run: true }, header: { Prefer: 'wait=30' } },
    body: 'name,employees\r\nTyped import,3\r\n',
    bodySerializer: (csv) => csv,
    headers: { 'content-type': 'text/csv' },
  });
  const job = imported.data?.data.import;
  check(imported.response.status === 200 && job?.state === 'completed', `import answered ${imported.response.status}`);
  check(job.rows.created === 1 && job.dryRun, 'the dry run would create one company');
  const again = await client.GET('/imports/{id}', { params: { path: { id: job.id } } });
  check(again.data?.data.import.id === job.id, 'the job is read by its id');
  process.stdout.write('typed client: create, list, get, update, delete, import OK\n');
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
