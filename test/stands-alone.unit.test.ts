// The repository stands alone: no build step, script or test reads a file outside it (a
// clone copied to an empty folder builds and passes). What a test can see of that: no
// relative URL or path literal in scripts/, test/, bin/ or .ci/ climbs above the clone,
// and none names the design folders that sit beside it on a developer's machine.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs|cjs|js|sh|zsh)$/.test(e.name) || (e.isFile() && e.name === 'run'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

// The folders of the service's reference and design, beside a developer's clone (written in
// two parts so that this file does not name them itself).
const BESIDE = new RegExp(`\\b${'shared'}/(api|design)\\b`);

const sources = ['scripts', 'test', 'bin', '.ci'].flatMap(files).filter((f) => !f.includes('node_modules'));

describe('the repository stands alone', () => {
  it('has files to check', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain('scripts/resource-fields.mjs');
  });

  it('no relative URL or path literal in scripts, tests, bin or CI leads outside the clone', () => {
    const outside: string[] = [];
    for (const file of sources) {
      const text = readFileSync(join(root, file), 'utf8');
      // new URL('../..', import.meta.url) and path literals of two or more '..' steps.
      for (const m of text.matchAll(/(['"`])((?:\.\.\/){2,}[^'"`\s]*)\1/g)) {
        const target = resolve(dirname(join(root, file)), m[2]!);
        if (relative(root, target).startsWith('..')) outside.push(`${file}: ${m[2]}`);
      }
      if (BESIDE.test(text)) outside.push(`${file}: names a folder beside the clone`);
    }
    expect(outside).toEqual([]);
  });
});
