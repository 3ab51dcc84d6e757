/**
 * Kubernetes objects checked against the API's JSON schemas, as compiled by kubernetes-models
 * (types, required fields, enums, formats; unknown fields are not rejected, as in the API's
 * OpenAPI document itself).
 */
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
