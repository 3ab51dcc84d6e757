import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { announceSkippedSuite } from '../support/skipped-suites';
import { startTestApp, TestApp } from '../support/test-app';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = join(__dirname, '..', '..', 'test-output');
// The tags and summaries hold links to their #/tag/operation anchors: a click also schedules that in-page navigation,
// which a loaded CI machine has been seen to take longer than the action timeout to settle. The clicks do not wait
// for it; each step waits for the element the previous one makes appear.
const opened = { noWaitAfter: true } as const;
// The document is 2.6 MB (38 collections): Swagger UI takes 6-7 s to render its tags on a quiet 2-core machine, and
// more than 30 s (playwright's default) when the other jest workers load the same cores in CI.
const UI_TIMEOUT_MS = 90_000;

/** Swagger UI in a real headless Chromium: lists the collections, authorizes, runs GET /people. */
// CI installs Debian's chromium and sets REQUIRE_CHROMIUM so that a missing browser fails instead of skipping;
// elsewhere a missing browser skips the suite, named loudly at the end of the run.
const runs = existsSync(CHROMIUM) || !!process.env.REQUIRE_CHROMIUM;
if (!runs)
  announceSkippedSuite(
    'swagger-ui',
    `no Chromium at ${CHROMIUM}`,
    'sudo apt-get install -y chromium (or CHROMIUM_PATH=/path/to/chromium npm test)',
  );
(runs ? describe : describe.skip)('Swagger UI at /rest/docs (headless Chromium)', () => {
  jest.setTimeout(4 * UI_TIMEOUT_MS);
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestApp();
    await t.http.post('/people', { name: { firstName: 'Grace', lastName: 'Hopper' } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the main objects first, each tag with its description, operations in the route table order, aliases last and deprecated', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.opblock-tag-section');
    // tags collapsed: the operations appear once their tag is opened
    expect(await page.locator('.opblock-tag-section .opblock').count()).toBe(0);
    const tags = await page.locator('.opblock-tag-section h3 .nostyle span').allInnerTexts();
    expect(tags.slice(0, 5)).toEqual(['people', 'companies', 'opportunities', 'notes', 'tasks']);
    // after the collections, the routes of no collection: the search, the change feed, the import jobs
    expect(tags.slice(-3)).toEqual(['search', 'changes', 'imports']);
    expect(await page.locator('#operations-tag-people').innerText()).toContain('the contacts of the CRM');

    await page.click('#operations-tag-people', opened);
    await page.waitForSelector('#operations-people-findManyPeople');
    const ids = await page
      .locator('.opblock-tag-section.is-open .opblock')
      .evaluateAll((blocks) => blocks.map((b) => b.id));
    expect(ids.map((id) => id.replace('operations-people-', ''))).toEqual([
      'findManyPeople',
      'exportPeople',
      'importPeople',
      'createOnePerson',
      'createManyPeople',
      'findOnePerson',
      'updateOnePerson',
      'deleteOnePerson',
      'findPersonDuplicates',
      'updateManyPeople',
      'deleteManyPeople',
      'restoreManyPeople',
      'restoreOnePerson',
      'groupByPeople',
      'mergePeople',
      'updateOnePersonPut',
      'updateManyPeoplePut',
      'restoreOnePersonAlias',
      'restoreManyPeopleAlias',
    ]);
    // the import of the collection shows its parameters and its two bodies
    await page.click('#operations-people-importPeople .opblock-summary', opened);
    await page.waitForSelector('#operations-people-importPeople .parameters');
    const names = await page.locator('#operations-people-importPeople .parameter__name').allInnerTexts();
    for (const name of ['operation', 'atomic', 'dry_run', 'delimiter', 'Prefer', 'Idempotency-Key'])
      expect(names.map((n) => n.replace(/\W*$/, '').trim())).toContain(name);
    expect(await page.locator('#operations-people-importPeople .body-param-content-type select').innerText()).toMatch(
      /text\/csv[\s\S]*application\/x-ndjson/,
    );
    await page.click('#operations-people-importPeople .opblock-summary', opened);
    await page.waitForSelector('#operations-people-importPeople .parameters', { state: 'detached' });
    const deprecated = await page
      .locator('.opblock-tag-section.is-open .opblock-deprecated')
      .evaluateAll((blocks) => blocks.map((b) => b.id));
    expect(deprecated).toHaveLength(4);
    expect(deprecated.every((id) => /Put$|Alias$/.test(id))).toBe(true);

    // the filter box narrows the tags as one types
    await page.fill('.operation-filter-input', 'opportun');
    await page.waitForFunction("document.querySelectorAll('.opblock-tag-section').length === 1");
    expect(await page.locator('.opblock-tag-section h3 .nostyle span').allInnerTexts()).toEqual(['opportunities']);
    await page.close();
  });

  it('lists the 38 collections, search, changes and imports, authorizes with a key and runs "try it out" on GET /people', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(t.baseUrl.replace('/rest', ''))) external.push(request.url());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.opblock-tag-section');
    // one section per collection, the search across collections, the change feed and the import jobs
    expect(await page.locator('.opblock-tag-section').count()).toBe(41);
    expect(await page.locator('.opblock-tag-section h3 .nostyle span', { hasText: /^search$/ }).count()).toBe(1);
    expect(await page.locator('.opblock-tag-section h3 .nostyle span', { hasText: /^changes$/ }).count()).toBe(1);
    expect(await page.locator('.opblock-tag-section h3 .nostyle span', { hasText: /^imports$/ }).count()).toBe(1);
    expect(external).toEqual([]); // served from the installed swagger-ui-dist, no CDN

    await page.click('button.authorize');
    await page.fill('.modal-ux input[type=text]', t.token);
    await page.click('.modal-ux button[type=submit]');
    await page.click('.modal-ux button.btn-done');

    await page.click('#operations-tag-people', opened);
    await page.waitForSelector('#operations-people-findManyPeople');
    await page.click('#operations-people-findManyPeople .opblock-summary', opened);
    await page.waitForSelector('#operations-people-findManyPeople button.try-out__btn');
    await page.click('#operations-people-findManyPeople button.try-out__btn', opened);
    await page.waitForSelector('#operations-people-findManyPeople button.execute');
    await page.click('#operations-people-findManyPeople button.execute', opened);
    const status = page
      .locator('#operations-people-findManyPeople .live-responses-table tbody .response-col_status')
      .first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const body = await page
      .locator('#operations-people-findManyPeople .live-responses-table .microlight')
      .first()
      .innerText();
    expect(body).toContain('Grace');

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'swagger-ui-get-people.png'), fullPage: false });
    expect(existsSync(join(OUTPUT, 'swagger-ui-get-people.png'))).toBe(true);
  }, 240_000);
});
