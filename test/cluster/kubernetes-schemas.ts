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
 * The custom resources of the CloudNativePG operator (Cluster, Pooler), checked against the
 * `openAPIV3Schema` of its published CRDs, vendored with their version in `crd-schemas/`.
 */
const CRD_VERSION = 'cloudnative-pg-v1.30.0';
const crdAjv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const CRDS: Record<string, ValidateFunction> = Object.fromEntries(
  ['Cluster', 'Pooler'].map((kind) => [
    `postgresql.cnpg.io/v1/${kind}`,
    crdAjv.compile(JSON.parse(readFileSync(join(__dirname, 'crd-schemas', CRD_VERSION, `${kind}.json`), 'utf8'))),
  ]),
);

/** The schema violations of a custom resource of the operators this repository uses (an unknown kind is one). */
export function customResourceProblems(doc: { apiVersion?: string; kind?: string }): string[] {
  const validate = CRDS[`${doc.apiVersion}/${doc.kind}`];
  if (!validate) return [`no CRD schema for ${doc.apiVersion} ${doc.kind}`];
  const kind = doc.kind;
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${kind} (${CRD_VERSION})${e.instancePath} ${e.message}`);
}
