/**
 * Validates the deployment files without Docker or a cluster (CI: `.ci/run`):
 * - docker-compose.yml against the Compose specification's JSON schema (as shipped by dclint),
 * - deploy/k8s/*.yaml against the Kubernetes API schemas (kubernetes-models, Kubernetes 1.27),
 * - the values that must agree across files: health routes, shutdown timings, replicas, the
 *   bucket of attachment files (MinIO in compose, a ConfigMap in Kubernetes), and the metrics
 *   listener that Prometheus scrapes (compose profile `observability`, a ServiceMonitor), read by
 *   the service's own configuration loader; the alert rules, the same in
 *   deploy/observability/alerts.yml and deploy/k8s/prometheus-rules.yaml.
 * Each validator is first shown a broken copy, which it must reject (a check that cannot fail
 * proves nothing). Exits 1 with every problem listed.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../../src/core/config/app-config';
import { customResourceProblems, isCustomResource, kubernetesProblems } from './kubernetes-schemas';

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
for (const kind of ['Deployment', 'Job', 'Service', 'ServiceMonitor', 'PrometheusRule'])
  if (!kinds.includes(kind)) problems.push(`deploy/k8s: no ${kind}`);
const deployment = manifests.find((m) => m.doc.kind === 'Deployment')!.doc;
const brokenDeployment = clone(deployment);
brokenDeployment.spec.replicas = 'three';
delete brokenDeployment.spec.template.spec.containers[0].name;
if (kubernetesProblems(brokenDeployment).length < 2)
  problems.push('the Kubernetes schemas accepted a broken Deployment (replicas: "three", a container without a name)');
for (const { file, doc } of manifests)
  problems.push(
    ...(isCustomResource(doc) ? customResourceProblems : kubernetesProblems)(doc).map(
      (p) => `deploy/k8s/${file}: ${p}`,
    ),
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

// --- Observability (API.md section 20): Prometheus and Grafana in compose (profile
// `observability`), a ServiceMonitor and a PrometheusRule in Kubernetes ------------------------
const OBSERVABILITY = 'deploy/observability';
const alertGroups = parse(read(`${OBSERVABILITY}/alerts.yml`)).groups;
/** The image's ENV line (HOST=0.0.0.0: the listeners bind every interface of the container). */
const imageEnv: Record<string, string> = Object.fromEntries(
  (/^ENV (.*)$/m.exec(dockerfile)?.[1] ?? '').split(/\s+/).map((pair) => pair.split('=')),
);
/** The metrics listener the service's own configuration gives `env` in the image (METRICS_PORT, default 9464). */
function metricsListenerProblems(where: string, env: Record<string, string>): { port?: number; problems: string[] } {
  try {
    const { port, host } = loadConfig({
      DATABASE_URL: 'postgres://db/crm',
      ENCRYPTION_KEY: 'k',
      ...imageEnv,
      ...env,
    }).metrics;
    if (port === 0) return { problems: [`${where}: METRICS_PORT=0 turns off the metrics that Prometheus scrapes`] };
    if (/^(127\.|localhost$|::1$)/.test(host))
      return { port, problems: [`${where}: the metrics listener binds ${host}: Prometheus cannot reach it`] };
    return { port, problems: [] };
  } catch (error) {
    return { problems: [`${where}: settings refused: ${(error as Error).message}`] };
  }
}

type ScrapeConfig = { scrape_configs?: { static_configs?: { targets?: string[] }[] }[] };
/** Prometheus scrapes every replica of `app` directly, by container name as HAProxy does; Grafana reads the files. */
function composeObservabilityProblems(doc: typeof compose, scrape: ScrapeConfig): string[] {
  const found: string[] = [];
  const services = doc.services ?? {};
  const images = { prometheus: /^prom\/prometheus:v\d+\.\d+\.\d+$/, grafana: /^grafana\/grafana:\d+\.\d+\.\d+$/ };
  for (const [name, service] of Object.entries<{ profiles?: string[]; image?: string; ports?: unknown[] }>(services)) {
    const pattern = images[name as keyof typeof images];
    if (!pattern) {
      if (service.profiles) found.push(`docker-compose.yml: ${name} must start without a profile`);
      continue;
    }
    if (!isDeepStrictEqual(service.profiles, ['observability']))
      found.push(`docker-compose.yml: ${name} must be in the profile observability`);
    if (!pattern.test(service.image ?? ''))
      found.push(`docker-compose.yml: ${name} must be an image pinned to a release`);
    for (const port of service.ports ?? [])
      if (!String(port).startsWith('127.0.0.1:'))
        found.push(`docker-compose.yml: ${name} publishes ${port} beyond 127.0.0.1`);
  }
  for (const name of Object.keys(images)) if (!services[name]) found.push(`docker-compose.yml: no ${name} service`);
  const mounts = (name: string): Record<string, string> =>
    Object.fromEntries(
      (services[name]?.volumes ?? [])
        .filter((v: unknown) => typeof v === 'string' && v.startsWith('./'))
        .map((v: string) => v.split(':').slice(0, 2)),
    );
  const prometheus = mounts('prometheus');
  for (const file of ['prometheus.yml', 'alerts.yml'])
    if (prometheus[`./${OBSERVABILITY}/${file}`] !== `/etc/prometheus/${file}`)
      found.push(`docker-compose.yml: prometheus must mount ${OBSERVABILITY}/${file} at /etc/prometheus/${file}`);
  const grafana = mounts('grafana');
  if (grafana[`./${OBSERVABILITY}/grafana/provisioning`] !== '/etc/grafana/provisioning')
    found.push(
      `docker-compose.yml: grafana must mount ${OBSERVABILITY}/grafana/provisioning at /etc/grafana/provisioning`,
    );
  for (const provider of parse(read(`${OBSERVABILITY}/grafana/provisioning/dashboards/crm.yaml`)).providers)
    if (grafana[`./${OBSERVABILITY}/grafana/dashboards`] !== provider.options?.path)
      found.push(
        `docker-compose.yml: grafana must mount ${OBSERVABILITY}/grafana/dashboards at ${provider.options?.path}`,
      );
  for (const source of parse(read(`${OBSERVABILITY}/grafana/provisioning/datasources/prometheus.yaml`)).datasources)
    if (!services[new URL(source.url).hostname])
      found.push(`grafana data source ${source.name}: ${source.url} is no service`);

  const listener = metricsListenerProblems('docker-compose.yml (app)', interpolated(services.app?.environment ?? {}));
  found.push(...listener.problems);
  const containers = Array.from({ length: services.app?.deploy?.replicas ?? 1 }, (_, i) => `crm-app-${i + 1}`).sort();
  const want = containers.map((container) => `${container}:${listener.port}`);
  const targets = (scrape.scrape_configs ?? []).flatMap((job) => (job.static_configs ?? []).flatMap((c) => c.targets));
  if (!isDeepStrictEqual([...targets].sort(), want))
    found.push(
      `${OBSERVABILITY}/prometheus.yml: the targets must be each replica's metrics listener, ${want.join(', ')} (got ${targets.join(', ')})`,
    );
  const balanced = Object.entries(services.haproxy?.environment ?? {})
    .filter(([name]) => /^APP\d+_ADDR$/.test(name))
    .map(([, address]) => String(address).split(':')[0])
    .sort();
  if (!isDeepStrictEqual(balanced, containers))
    found.push(
      `docker-compose.yml: HAProxy balances ${balanced.join(', ')}, Prometheus scrapes ${containers.join(', ')}`,
    );
  return found;
}
const scrapeConfig: ScrapeConfig = parse(read(`${OBSERVABILITY}/prometheus.yml`));
const brokenScrape = clone(scrapeConfig);
brokenScrape.scrape_configs![0].static_configs = [{ targets: ['haproxy:8080'] }];
const brokenObservability = clone(compose);
if (brokenObservability.services.prometheus) brokenObservability.services.prometheus.ports = ['9090:9090'];
if (composeObservabilityProblems(brokenObservability, brokenScrape).length < 2)
  problems.push(
    'the compose observability checks accepted a broken file (a scrape through HAProxy, a port on every interface)',
  );
problems.push(...composeObservabilityProblems(compose, scrapeConfig));

/** The ServiceMonitor reaches the pods' metrics listener: a port of the Service, to the container port of METRICS_PORT. */
function serviceMonitorProblems(monitor: {
  spec: { selector?: { matchLabels?: object }; endpoints?: { port?: string }[] };
}) {
  const wanted = Object.entries(monitor.spec.selector?.matchLabels ?? {});
  const services = manifests
    .filter((m) => m.doc.kind === 'Service' && wanted.every(([k, v]) => m.doc.metadata?.labels?.[k] === v))
    .map((m) => m.doc);
  if (wanted.length === 0 || services.length !== 1)
    return [`ServiceMonitor: its selector must match the Service of the pods (it matches ${services.length})`];
  const service = services[0];
  const podEnv = Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, String(v ?? '').replace(/\$\((\w+)\)/g, 'x')]),
  );
  const listener = metricsListenerProblems('deployment', podEnv);
  const found = [...listener.problems];
  if (!(monitor.spec.endpoints?.length ?? 0)) found.push('ServiceMonitor: no endpoint');
  for (const { port } of monitor.spec.endpoints ?? []) {
    const servicePort = (service.spec.ports ?? []).find((p: { name?: string }) => p.name === port);
    const target = servicePort?.targetPort ?? servicePort?.port;
    const containerPort = (container.ports ?? []).find(
      (p: { name?: string; containerPort: number }) => p.name === target || p.containerPort === target,
    );
    if (!servicePort)
      found.push(
        `ServiceMonitor: port ${port} is no port of the Service ${service.metadata.name} (service.yaml: { name: ${port}, port: ${listener.port}, targetPort: ${port} }, deployment.yaml: { name: ${port}, containerPort: ${listener.port} })`,
      );
    else if (containerPort?.containerPort !== listener.port)
      found.push(
        `Service ${service.metadata.name}: port ${port} must reach the metrics listener, container port ${listener.port} (got ${target})`,
      );
  }
  return found;
}
const serviceMonitor = manifests.find((m) => m.doc.kind === 'ServiceMonitor')?.doc;
const prometheusRule = manifests.find((m) => m.doc.kind === 'PrometheusRule')?.doc;
if (serviceMonitor && prometheusRule) {
  const brokenMonitor = clone(serviceMonitor);
  brokenMonitor.spec.endpoints = { port: 'metrics' };
  const brokenRule = clone(prometheusRule);
  brokenRule.spec.groups[0].rules[0].for = 'five minutes';
  if (customResourceProblems(brokenMonitor).length < 1 || customResourceProblems(brokenRule).length < 1)
    problems.push(
      'the CRD schemas accepted a broken ServiceMonitor (endpoints: an object) or PrometheusRule (for: five minutes)',
    );
  const apiPort = clone(serviceMonitor);
  apiPort.spec.endpoints = [{ port: 'http' }];
  if (serviceMonitorProblems(apiPort).length < 1)
    problems.push('the ServiceMonitor check accepted a scrape of the API port');
  problems.push(...serviceMonitorProblems(serviceMonitor).map((p) => `deploy/k8s/service-monitor.yaml: ${p}`));
  if (!isDeepStrictEqual(prometheusRule.spec?.groups, alertGroups))
    problems.push(`deploy/k8s/prometheus-rules.yaml: spec.groups must be the groups of ${OBSERVABILITY}/alerts.yml`);
}

if (problems.length > 0) {
  process.stderr.write(`deployment files: ${problems.length} problem(s)\n  - ${problems.join('\n  - ')}\n`);
  process.exit(1);
}
process.stdout.write(
  `deployment files: docker-compose.yml valid against the Compose schema; ${manifests.length} Kubernetes objects (${kinds.join(', ')}) valid against the Kubernetes 1.27 schemas; ` +
    `grace ${pod.terminationGracePeriodSeconds} s >= preStop ${preStopSeconds} s + ${k8sTimeout} ms + 5 s; ` +
    'files in one S3 bucket (MinIO in compose); CloudNativePG Cluster and Pooler valid against the v1.30.0 CRDs, ' +
    'the pods on its Pooler (transaction), -rw and -ro; Prometheus scrapes every replica directly (compose) and through ' +
    'the ServiceMonitor, valid with the PrometheusRule against the Prometheus Operator v0.90.1 CRDs, its rules those ' +
    'of alerts.yml; broken copies rejected\n',
);
