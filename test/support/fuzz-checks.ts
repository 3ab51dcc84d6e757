import { HttpResponse } from './http';

/** SQL text, stack frames, file paths or driver names in a body (not the field type SELECT named in messages: "on field 'stage' (SELECT)"). */
export const LEAK =
  /\bSELECT\s+["*\w(]|\bINSERT INTO\b|\bUPDATE "|\bWHERE "|\bat [\w.<>]+ \(|node_modules|\/work\/|\/src\/|QueryFailedError|stack/;

/** What is wrong with an answer whatever the request: a 5xx, an error without the envelope, a leak. `label` names the request. */
export function answerViolations(label: string, res: HttpResponse): string[] {
  const found: string[] = [];
  if (res.status >= 500) found.push(`${label} -> ${res.status} ${res.text.slice(0, 200)}`);
  if (res.status >= 400) {
    const envelope =
      res.body?.statusCode === res.status &&
      typeof res.body.error === 'string' &&
      Array.isArray(res.body.messages) &&
      res.body.messages.length > 0 &&
      res.body.messages.every((m: unknown) => typeof m === 'string');
    if (!envelope) found.push(`${label} -> ${res.status} without the envelope: ${res.text.slice(0, 200)}`);
  }
  if (LEAK.test(res.text)) found.push(`${label} -> ${res.status} leaks: ${res.text.slice(0, 200)}`);
  return found;
}
