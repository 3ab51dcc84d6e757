import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, Json } from './http';

export const VALIDATION_REPORT_DIR = join(__dirname, '..', '..', 'test-output', 'openapi-validation');

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates every response the e2e client receives against the schema the served OpenAPI
 * document declares for its path, method and status. A mismatch throws, so it fails the test.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly templates: { path: string; pattern: RegExp; literals: number }[];
  private readonly compiled = new Map<string, ValidateFunction>();
  validated = 0;

  constructor(private readonly doc: Record<string, Json>) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
    this.templates = Object.keys(doc.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literals: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  check(method: string, url: string, response: HttpResponse): void {
    const path = url.split('?')[0];
    const verb = method.toLowerCase();
    const template = this.templates.find((t) => t.pattern.test(path) && this.doc.paths[t.path][verb]);
    if (!template) return; // a route the document does not describe (public documents, unknown paths)
    const operation = this.doc.paths[template.path][verb];
    const declared = operation.responses[String(response.status)];
    if (!declared) {
      throw new Error(
        `OpenAPI: ${method} ${template.path} answered ${response.status}, which the document does not declare`,
      );
    }
    const media = Object.keys(declared.content ?? {});
    if (media.length && !media.includes('application/json')) {
      // a stream (an export): its media type must be one the document declares
      const type = response.headers.get('content-type')?.split(';')[0];
      if (!type || !media.includes(type)) {
        throw new Error(`OpenAPI: ${method} ${url} -> ${response.status} is ${type}, not one of ${media.join(', ')}`);
      }
      this.validated += 1;
      return;
    }
    const key = `${template.path} ${verb} ${response.status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const pointer = `openapi#/paths/${escape(template.path)}/${verb}/responses/${response.status}/content/application~1json/schema`;
      validate = this.ajv.compile({ $ref: pointer });
      this.compiled.set(key, validate);
    }
    if (!validate(response.body)) {
      const errors = this.ajv.errorsText(validate.errors, { separator: '\n  ' });
      throw new Error(`OpenAPI: ${method} ${url} -> ${response.status} does not match the document:\n  ${errors}`);
    }
    this.validated += 1;
  }

  /** Leaves the count of this test file for the global summary. */
  report(name: string): void {
    mkdirSync(VALIDATION_REPORT_DIR, { recursive: true });
    writeFileSync(
      join(VALIDATION_REPORT_DIR, `${name}-${process.pid}-${Date.now()}.json`),
      JSON.stringify({ validated: this.validated }),
    );
  }
}
