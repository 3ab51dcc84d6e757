/**
 * Validates the deployment files without Docker or a cluster (CI: `.ci/run`):
 * - docker-compose.yml against the Compose specification's JSON schema (as shipped by dclint),
 * - deploy/k8s/*.yaml against the Kubernetes API schemas (kubernetes-models, Kubernetes 1.27),
 * - the values that must agree across files: health routes, shutdown timings, replicas, and the
 *   bucket of attachment files (MinIO in compose, a ConfigMap in Kubernetes), read by the
 *   service's own configuration loader.
 * Each validator is first shown a broken copy, which it must reject (a check that cannot fail
 * proves nothing). Exits 1 with every problem listed.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/core/config/app-config';
import { customResourceProblems, kubernetesProblems } from './kubernetes-schemas';

const ROOT = join(__dirname, '..', '..');
const problems: string[] = [];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

// --- Compose ----------------------------------------------------------------------------------
// dclint's package exports do not list the schema: find it beside its package.json (node_modules)
const schema = JSON.parse(read(join('node_modules', 'dclint', 'schemas', 'compose.schema.json')));
// the same draft-07 meta-schema, under the URI ajv registers it with
if (/draft-07/.test(schema.$schema)) schema.$schema = 'http://json-schema.org/draft-07/schema#';
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validateCompose = ajv.compile(schema);
const composeProblems = (doc: unknown): string[] =>
  validateCompose(doc)
    ? []
    : (validateCompose.errors ?? []).map((e) => `docker-compose.yml${e.instancePath} ${e.message}`);

const compose = parse(read('docker-compose.yml'), { merge: true });
const brokenCompose = clone(compose);
brokenCompose.services.app.deploy.replicas = { count: 3 };
brokenCompose.services.app.helthcheck = {};
if (composeProblems(brokenCompose).length < 2)
  problems.push('the compose schema accepted a broken file (replicas: an object, helthcheck)');
problems.push(...composeProblems(compose));

const app = compose.services?.app ?? {};
if (!(app.deploy?.replicas >= 2)) problems.push('docker-compose.yml: app needs at least 2 replicas');
if (app.depends_on?.migrate?.condition !== 'service_completed_successfully')
  problems.push('docker-compose.yml: app must wait for the migrate service');
if (app.environment?.MIGRATIONS_RUN !== 'false')
  problems.push('docker-compose.yml: replicas must not run migrations themselves');
for (const service of ['postgres', 'postgres-replica', 'pgbouncer', 'redis', 'migrate', 'haproxy'])
  if (!compose.services?.[service]) problems.push(`docker-compose.yml: no ${service} service`);
if (!/postgres:(1[89]|[2-9]\d)/.test(compose.services?.postgres?.image ?? ''))
  problems.push('docker-compose.yml: PostgreSQL must be a current major (18+)');
if (!(compose.services?.haproxy?.volumes ?? []).some((v: string) => v.startsWith('./deploy/haproxy.cfg:')))
  problems.push('docker-compose.yml: HAProxy must use deploy/haproxy.cfg');
// the database tier: writes through PgBouncer (transaction mode), LISTEN and migrations direct, reads on the replica
const composeHost = (url?: string) => (url ? new URL(url.replace(/\$\{[^}]*\}/g, 'x')).hostname : undefined);
for (const [variable, host] of Object.entries({
  DATABASE_URL: 'pgbouncer',
  DATABASE_DIRECT_URL: 'postgres',
  DATABASE_REPLICA_URLS: 'postgres-replica',
}))
  if (composeHost(app.environment?.[variable]) !== host)
    problems.push(`docker-compose.yml: ${variable} must reach the ${host} service`);
if (app.environment?.DATABASE_POOL_MODE !== 'transaction')
  problems.push('docker-compose.yml: DATABASE_POOL_MODE=transaction behind PgBouncer');
if (!/pool_mode = transaction/.test(read('deploy/pgbouncer/pgbouncer.ini')))
  problems.push('deploy/pgbouncer/pgbouncer.ini: pool_mode must be transaction');
if (!/pg_basebackup -h postgres .*-R/.test(String(compose.services?.['postgres-replica']?.command)))
  problems.push('docker-compose.yml: postgres-replica must start from a base backup of postgres (-R)');
const grace = Number(/^(\d+)s$/.exec(app.stop_grace_period ?? '')?.[1]);
const composeTimeout = Number(app.environment?.SHUTDOWN_TIMEOUT_MS);
if (!(grace * 1000 >= composeTimeout + 5000))
  problems.push(
    `docker-compose.yml: stop_grace_period (${app.stop_grace_period}) must cover SHUTDOWN_TIMEOUT_MS + 5 s`,
  );

// --- Attachment files: the replicas share one S3 bucket (MinIO in compose) ------------------
/** `${NAME:-default}` and `${NAME:?message}` as Compose resolves them with NAME unset (a placeholder for `?`). */
const interpolated = (env: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      String(value).replace(/\$\{\w+:([-?])([^}]*)\}/g, (_all, kind: string, text: string) =>
        kind === '-' ? text : 'placeholder-8',
      ),
    ]),
  );

/** The service's own configuration of `env` (DATA_DIR and secrets as a deployment would set them). */
function storageOf(env: Record<string, string>) {
  return loadConfig({ DATABASE_URL: 'postgres://db/crm', ENCRYPTION_KEY: 'k', ...env }).fileStorage;
}

function composeStorageProblems(doc: typeof compose): string[] {
  const found: string[] = [];
  const services = doc.services ?? {};
  const appEnv = services.app?.environment ?? {};
  for (const name of ['minio', 'minio-init'])
    if (!/:RELEASE\.\d{4}-\d\d-\d\dT/.test(services[name]?.image ?? ''))
      found.push(`docker-compose.yml: ${name} must be an image pinned to a MinIO release tag`);
  try {
    const storage = storageOf(interpolated(appEnv));
    if (storage.kind !== 's3') found.push('docker-compose.yml: the replicas must store files in S3 (set S3_BUCKET)');
    else if (new URL(storage.endpoint ?? 'http://none').host !== 'minio:9000')
      found.push(`docker-compose.yml: S3_ENDPOINT must be the minio service (got ${storage.endpoint})`);
  } catch (error) {
    found.push(`docker-compose.yml: app settings refused: ${(error as Error).message}`);
  }
  const init = services['minio-init'] ?? {};
  if (init.environment?.S3_BUCKET !== appEnv.S3_BUCKET)
    found.push('docker-compose.yml: minio-init must create the bucket the app uses (S3_BUCKET)');
  if (!/mc mb --ignore-existing "crm\/\$\$S3_BUCKET"/.test(String(init.command)))
    found.push('docker-compose.yml: minio-init must create $S3_BUCKET');
  const minioEnv = services.minio?.environment ?? {};
  if (
    appEnv.S3_ACCESS_KEY_ID !== minioEnv.MINIO_ROOT_USER ||
    appEnv.S3_SECRET_ACCESS_KEY !== minioEnv.MINIO_ROOT_PASSWORD
  )
    found.push("docker-compose.yml: the app's S3 keys must be MinIO's user and password");
  if (services.app?.depends_on?.['minio-init']?.condition !== 'service_completed_successfully')
    found.push('docker-compose.yml: app must wait for the bucket (minio-init)');
  return found;
}
const brokenStorage = clone(compose);
brokenStorage.services.app.environment.S3_ENDPOINT = 'http://localhost:9000';
brokenStorage.services['minio-init'].environment.S3_BUCKET = 'other-bucket';
if (composeStorageProblems(brokenStorage).length < 2)
  problems.push('the compose storage checks accepted a broken file (S3_ENDPOINT elsewhere, another bucket created)');
problems.push(...composeStorageProblems(compose));

// --- HAProxy and Dockerfile ------------------------------------------------------------------
const haproxy = read('deploy/haproxy.cfg');
for (const needed of [/uri \/rest\/ready/, /^\s*option redispatch/m, /^\s*retries \d/m, /\$\{APP1_ADDR\}/])
  if (!needed.test(haproxy)) problems.push(`deploy/haproxy.cfg: missing ${needed}`);
const dockerfile = read('Dockerfile');
for (const from of dockerfile.match(/^FROM .*/gm) ?? [])
  if (!/node:(22|24)[.-]/.test(from)) problems.push(`Dockerfile: ${from} is not Node 22 or 24 LTS`);
if (!/HEALTHCHECK[\s\S]*process\.env\.PORT/.test(dockerfile))
  problems.push('Dockerfile: HEALTHCHECK must follow $PORT');
if (!/^USER node$/m.test(dockerfile)) problems.push('Dockerfile: must run as a non-root user');

// --- Kubernetes ------------------------------------------------------------------------------
const manifests = readdirSync(join(ROOT, 'deploy', 'k8s'))
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(read(join('deploy', 'k8s', file))).map((doc) => ({ file, doc: doc.toJS() })));
const kinds = manifests.map((m) => m.doc.kind);
for (const kind of ['Deployment', 'Job', 'Service']) if (!kinds.includes(kind)) problems.push(`deploy/k8s: no ${kind}`);
const deployment = manifests.find((m) => m.doc.kind === 'Deployment')!.doc;
const brokenDeployment = clone(deployment);
brokenDeployment.spec.replicas = 'three';
delete brokenDeployment.spec.template.spec.containers[0].name;
if (kubernetesProblems(brokenDeployment).length < 2)
  problems.push('the Kubernetes schemas accepted a broken Deployment (replicas: "three", a container without a name)');
const isOperated = (doc: { apiVersion?: string }) => String(doc.apiVersion).startsWith('postgresql.cnpg.io/');
for (const { file, doc } of manifests)
  problems.push(
    ...(isOperated(doc) ? customResourceProblems : kubernetesProblems)(doc).map((p) => `deploy/k8s/${file}: ${p}`),
  );

const pod = deployment.spec.template.spec;
const container = pod.containers[0];
const env = Object.fromEntries((container.env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]));
if (container.readinessProbe?.httpGet?.path !== '/rest/ready')
  problems.push('deployment: readinessProbe must GET /rest/ready');
if (container.livenessProbe?.httpGet?.path !== '/rest/health')
  problems.push('deployment: livenessProbe must GET /rest/health');
const preStopSeconds = Number(container.lifecycle?.preStop?.exec?.command?.[1]);
const k8sTimeout = Number(env.SHUTDOWN_TIMEOUT_MS);
if (!(preStopSeconds > 0)) problems.push('deployment: preStop must sleep while endpoints are removed');
if (!(pod.terminationGracePeriodSeconds * 1000 >= preStopSeconds * 1000 + k8sTimeout + 5000))
  problems.push(
    `deployment: terminationGracePeriodSeconds (${pod.terminationGracePeriodSeconds}) < preStop (${preStopSeconds} s) + SHUTDOWN_TIMEOUT_MS (${k8sTimeout} ms) + 5 s`,
  );
if (env.MIGRATIONS_RUN !== 'false') problems.push('deployment: pods must not run migrations (the Job does)');

// --- The database tier on Kubernetes: CloudNativePG (API.md section 19) ------------------------
const cluster = manifests.find((m) => m.doc.kind === 'Cluster')?.doc;
const pooler = manifests.find((m) => m.doc.kind === 'Pooler')?.doc;
if (!cluster || !pooler) problems.push('deploy/k8s: no CloudNativePG Cluster and Pooler');
else {
  const brokenCluster = clone(cluster);
  brokenCluster.spec.instances = 'three';
  brokenCluster.spec.postgresql.synchronous.method = 'sometimes';
  const brokenPooler = clone(pooler);
  brokenPooler.spec.pgbouncer.poolMode = 'statement-ish';
  if (customResourceProblems(brokenCluster).length < 2 || customResourceProblems(brokenPooler).length < 1)
    problems.push('the CRD schemas accepted a broken Cluster (instances: "three", method: sometimes) or Pooler');
  problems.push(...databaseTierProblems(cluster, pooler));
}

/** The Cluster replicates synchronously, the Pooler is transaction mode, the pods use both as API.md section 19 says. */
function databaseTierProblems(db: typeof cluster, pool: typeof pooler): string[] {
  const found: string[] = [];
  const name = db.metadata.name;
  if (!(db.spec.instances >= 3)) found.push('Cluster: at least 3 instances (a primary and two standbys)');
  const sync = db.spec.postgresql?.synchronous ?? {};
  if (!(sync.number >= 1) || sync.dataDurability !== 'required')
    found.push('Cluster: a synchronous standby with dataDurability required (no acknowledged write lost)');
  if (pool.spec.cluster?.name !== name || pool.spec.type !== 'rw' || pool.spec.pgbouncer?.poolMode !== 'transaction')
    found.push(`Pooler: type rw in transaction mode, in front of ${name}`);
  const hostOf = (url?: string) => (url ? new URL(url.replace(/\$\((\w+)\)/g, 'x')).hostname : undefined);
  const want: Record<string, string> = {
    DATABASE_URL: pool.metadata.name,
    DATABASE_DIRECT_URL: `${name}-rw`,
    DATABASE_REPLICA_URLS: `${name}-ro`,
  };
  for (const [variable, host] of Object.entries(want))
    if (hostOf(env[variable]) !== host) found.push(`deployment: ${variable} must reach ${host} (got ${env[variable]})`);
  if (env.DATABASE_POOL_MODE !== 'transaction')
    found.push('deployment: DATABASE_POOL_MODE=transaction behind the Pooler');
  const job = manifests.find((m) => m.doc.kind === 'Job')!.doc.spec.template.spec.containers[0];
  const jobUrl = (job.env ?? []).find((e: { name: string }) => e.name === 'DATABASE_URL')?.value;
  if (hostOf(jobUrl) !== `${name}-rw`) found.push(`migration job: DATABASE_URL must reach ${name}-rw, not a pooler`);
  try {
    const placeholders = Object.fromEntries(
      Object.entries(env).map(([k, v]) => [k, String(v ?? '').replace(/\$\((\w+)\)/g, 'x')]),
    );
    loadConfig({ ENCRYPTION_KEY: 'k', ...placeholders });
  } catch (error) {
    found.push(`deployment: settings refused: ${(error as Error).message}`);
  }
  return found;
}

/** The pod's environment: its env values and the ConfigMaps it loads (secrets are not in the repository). */
function podStorageProblems(spec: typeof container): string[] {
  const maps = (spec.envFrom ?? [])
    .map((source: { configMapRef?: { name: string } }) => source.configMapRef?.name)
    .filter(Boolean)
    .map((name: string) => manifests.find((m) => m.doc.kind === 'ConfigMap' && m.doc.metadata?.name === name)?.doc);
  if (maps.includes(undefined)) return ['deployment: envFrom names a ConfigMap that deploy/k8s does not define'];
  const own = (spec.env ?? []).map((e: { name: string; value?: string }) => [e.name, e.value ?? '']);
  const podEnv = Object.assign({}, ...maps.map((m: { data?: object }) => m.data ?? {}), Object.fromEntries(own));
  try {
    if (storageOf(podEnv).kind !== 's3')
      return ['deployment: the replicas must store files in a shared S3 bucket (S3_BUCKET in the ConfigMap)'];
  } catch (error) {
    return [`deployment: settings refused: ${(error as Error).message}`];
  }
  return [];
}
const brokenContainer = clone(container);
brokenContainer.envFrom = (brokenContainer.envFrom ?? []).filter((s: { configMapRef?: unknown }) => !s.configMapRef);
if (podStorageProblems(brokenContainer).length < 1)
  problems.push('the storage check accepted pods without the ConfigMap of S3_BUCKET');
problems.push(...podStorageProblems(container));

if (problems.length > 0) {
  process.stderr.write(`deployment files: ${problems.length} problem(s)\n  - ${problems.join('\n  - ')}\n`);
  process.exit(1);
}
process.stdout.write(
  `deployment files: docker-compose.yml valid against the Compose schema; ${manifests.length} Kubernetes objects (${kinds.join(', ')}) valid against the Kubernetes 1.27 schemas; ` +
    `grace ${pod.terminationGracePeriodSeconds} s >= preStop ${preStopSeconds} s + ${k8sTimeout} ms + 5 s; ` +
    'files in one S3 bucket (MinIO in compose); CloudNativePG Cluster and Pooler valid against the v1.30.0 CRDs, ' +
    'the pods on its Pooler (transaction), -rw and -ro; broken copies rejected\n',
);
