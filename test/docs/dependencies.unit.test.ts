// docs/development.md's table of dependencies names every runtime dependency of
// package.json, each with its installed size, and nothing that package.json does not hold.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const page = readFileSync(join(repo, 'docs/development.md'), 'utf8');

/** The rows of the table under "## Dependencies and why": the names of its first cell, and its size cell. */
function rows(text: string): { names: string[]; size: string }[] {
  const section = text.split(/^## Dependencies and why\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*(dependency|---)/.test(line))
    .map((line) => {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      const names = cells[0]!.replace(/\([^)]*\)/g, '').split(',').map((n) => n.trim().split(/\s/)[0]!);
      return { names, size: cells[1] ?? '' };
    });
}

describe('docs/development.md, its dependencies', () => {
  const table = rows(page);

  it('reads the table', () => {
    expect(rows('## Dependencies and why\n\n| dependency | installed | why |\n|---|---|---|\n| a, b | 1 KB | c |\n\n## Next\n| x | y | z |\n')).toEqual([{ names: ['a', 'b'], size: '1 KB' }]);
  });

  it('lists every runtime dependency of package.json', () => {
    const listed = table.flatMap((row) => row.names);
    expect(Object.keys(pkg.dependencies).filter((dep) => !listed.includes(dep))).toEqual([]);
  });

  it('lists nothing package.json does not depend on', () => {
    const known = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
    expect(table.flatMap((row) => row.names).filter((name) => !known.includes(name))).toEqual([]);
  });

  it('gives each its installed size', () => {
    expect(table.filter((row) => !/\d+(\.\d+)? (KB|MB)/.test(row.size)).map((row) => row.names.join(', '))).toEqual([]);
  });
});
