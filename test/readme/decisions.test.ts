// Every decision the code cites (D13 …) is written down in docs/decisions.md, in the
// project's own words, under the same number; and that page cites no number the
// reference pages do not have.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const decisions = readFileSync(join(repo, 'docs/decisions.md'), 'utf8');
const written = new Set([...decisions.matchAll(/^- \*\*(D\d+) /gm)].map((m) => m[1]!));

function filesUnder(dir: string): string[] {
  return readdirSync(join(repo, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|cjs|js|sh)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('docs/decisions.md', () => {
  it('writes down every decision cited in src/, test/, scripts/ and bin/', () => {
    expect(written.size).toBeGreaterThan(25);
    const cited = new Map<string, string>();
    for (const file of ['src', 'test', 'scripts', 'bin'].flatMap(filesUnder)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bD(\d{1,3})\b/g)) cited.set(`D${m[1]}`, file);
    }
    expect(cited.size).toBeGreaterThan(25);
    const missing = [...cited].filter(([d]) => !written.has(d)).map(([d, file]) => `${d} (${file})`);
    expect(missing).toEqual([]);
  });

  it('numbers each decision once', () => {
    const all = [...decisions.matchAll(/^- \*\*(D\d+) /gm)].map((m) => m[1]!);
    expect(all.length).toBe(written.size);
  });
});
