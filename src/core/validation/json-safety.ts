/** Keys that could reach an object prototype through naive merging code. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Maximum nesting of objects and arrays in a request body. */
export const MAX_JSON_DEPTH = 32;

/**
 * Rejects bodies that no record needs and that attack the code that handles them:
 * prototype-pollution keys anywhere, and nesting deeper than MAX_JSON_DEPTH.
 * Returns a message, or undefined when the value is safe.
 */
export function checkJsonSafety(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return `Body is nested deeper than ${maxDepth} levels`;
    const entries = Array.isArray(item.value)
      ? item.value.map((v, i) => [String(i), v] as const)
      : Object.entries(item.value);
    for (const [key, child] of entries) {
      if (FORBIDDEN_KEYS.has(key)) return `property ${item.path ? `${item.path}.` : ''}${key} is not allowed`;
      stack.push({ value: child, depth: item.depth + 1, path: item.path ? `${item.path}.${key}` : key });
    }
  }
  return undefined;
}
