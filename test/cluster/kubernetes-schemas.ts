/**
 * Kubernetes objects checked against the API's JSON schemas, as compiled by kubernetes-models
 * (types, required fields, enums, formats; unknown fields are not rejected, as in the API's
 * OpenAPI document itself).
 */
import Ajv, { ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';

type Validatable = { validate(): void };
type ModelClass = new (data: object) => Validatable;

/** The model module of each apiVersion/kind this repository ships. */
const MODELS: Record<string, () => ModelClass> = {
  'apps/v1/Deployment': () => Deployment,
  'batch/v1/Job': () => Job,
  'v1/Service': () => Service,
  'v1/ConfigMap': () => ConfigMap,
  'policy/v1/PodDisruptionBudget': () => PodDisruptionBudget,
};

/** The schema violations of one object (an unknown apiVersion/kind is one). */
export function kubernetesProblems(doc: { apiVersion?: string; kind?: string }): string[] {
  const model = MODELS[`${doc.apiVersion}/${doc.kind}`];
  if (!model) return [`no schema for ${doc.apiVersion} ${doc.kind}`];
  try {
    new (model())(doc).validate();
    return [];
  } catch (error) {
    return String((error as Error).message)
      .split(/,\s*(?=data\/)/)
      .map((message) => `${doc.kind}: ${message}`);
  }
}

/**
 * The custom resources of the operators this repository uses, checked against the
 * `openAPIV3Schema` of their published CRDs, vendored with their version in `crd-schemas/`:
 * CloudNativePG (Cluster, Pooler) and the Prometheus Operator (ServiceMonitor, PodMonitor,
 * PrometheusRule; crd-schemas/prometheus-operator-v0.90.1/README.md).
 */
const CRD_SETS = [
  { version: 'cloudnative-pg-v1.30.0', apiVersion: 'postgresql.cnpg.io/v1', kinds: ['Cluster', 'Pooler'] },
  {
    version: 'prometheus-operator-v0.90.1',
    apiVersion: 'monitoring.coreos.com/v1',
    kinds: ['ServiceMonitor', 'PodMonitor', 'PrometheusRule'],
  },
];
/** The CRDs' patterns are Go's (RE2): `(?i)` at the start is JavaScript's `i` flag. */
const goRegExp = Object.assign(
  (pattern: string, flags: string) =>
    pattern.includes('(?i)') ? new RegExp(pattern.replace('(?i)', ''), `${flags}i`) : new RegExp(pattern, flags),
  { code: 'new RegExp' },
);
const crdAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false, code: { regExp: goRegExp } });
const CRDS: Record<string, { version: string; validate: ValidateFunction }> = Object.fromEntries(
  CRD_SETS.flatMap(({ version, apiVersion, kinds }) =>
    kinds.map((kind) => [
      `${apiVersion}/${kind}`,
      {
        version,
        validate: crdAjv.compile(
          JSON.parse(readFileSync(join(__dirname, 'crd-schemas', version, `${kind}.json`), 'utf8')),
        ),
      },
    ]),
  ),
);

/** Whether `doc` is a custom resource of one of those operators (else a core Kubernetes object). */
export const isCustomResource = (doc: { apiVersion?: string }): boolean =>
  CRD_SETS.some(({ apiVersion }) => doc.apiVersion === apiVersion);

/** The schema violations of a custom resource of the operators this repository uses (an unknown kind is one). */
export function customResourceProblems(doc: { apiVersion?: string; kind?: string }): string[] {
  const crd = CRDS[`${doc.apiVersion}/${doc.kind}`];
  if (!crd) return [`no CRD schema for ${doc.apiVersion} ${doc.kind}`];
  const kind = doc.kind;
  if (crd.validate(doc)) return [];
  return (crd.validate.errors ?? []).map((e) => `${kind} (${crd.version})${e.instancePath} ${e.message}`);
}
