/**
 * Summarizes a V8 CPU profile (`npm run bench -- --cpu-prof` writes one per target):
 *   npx ts-node --transpile-only bench/profile-top.ts <file.cpuprofile> [lines=25]
 * Prints the functions with the most self time, then the most inclusive time (a function
 * counted once per sample however deep it recurses), with their file:line.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, linesArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [lines]');
const lines = Number(linesArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode) => {
  const url = n.callFrame.url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'nm/')
    .replace(/^.*\/(src|bench|dist)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url}${url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const node = byId.get(id)!;
  const name = label(node);
  if (node.callFrame.functionName === '(idle)') {
    idle += dt;
    return;
  }
  total += dt;
  self.set(name, (self.get(name) ?? 0) + dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
  }
});
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %`;
const top = (map: Map<string, number>) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, lines)
    .map(([name, us]) => `${ms(us)}  ${name}`)
    .join('\n');
process.stdout.write(
  `${file}: ${(total / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle\n\nself:\n${top(self)}\n\ninclusive:\n${top(inclusive)}\n`,
);
