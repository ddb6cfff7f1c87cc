// Comments, test names and docs state their reasons: a decision is a D-number of
// docs/decisions.md or a plain reason, never a tracker's issue number, which the repository
// does not hold.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : /\.(ts|mjs|cjs|js)$/.test(e.name) ? [`${dir}/${e.name}`] : []));
}

/** The Markdown files of a folder itself (docs/*.md). */
function markdown(dir: string): string[] {
  return readdirSync(join(repo, dir)).flatMap((name) => (name.endsWith('.md') ? [`${dir}/${name}`] : []));
}

/** `issue 30`, `issues 30-34`, `(#41)`: a tracker's number. */
const TRACKER = /\bissues? #?\d+\b|\(#\d+\)/i;

// This file is left out: the examples of its first test are tracker numbers on purpose.
const SELF = 'test/tracker-numbers.unit.test.ts';

/** The code of src/, test/, scripts/ and bin/, the docs, README.md and CHANGELOG.md. */
const checked = [...['src', 'test', 'scripts', 'bin'].flatMap((dir) => files(dir)), ...markdown('docs'), 'README.md', 'CHANGELOG.md'].filter((file) => file !== SELF);

describe('code and docs', () => {
  it('finds a tracker number where there is one', () => {
    expect(['// see issue 33', '// Issue 30, item 1', '// issues 30–34', '// issue #30', '// (#41)'].every((line) => TRACKER.test(line))).toBe(true);
    expect(['// D33', '// an issue of the API', '// 33 issues', '// issued 30 days ago', '// an issue 2FA raises', '// (nodejs/node#63785)'].some((line) => TRACKER.test(line))).toBe(false);
  });

  it('cites no tracker issue number', () => {
    expect(checked).toEqual(expect.arrayContaining(['src/main.ts', 'test/helpers/fault-server.ts', 'scripts/build.mjs', 'bin/bo.js', 'docs/decisions.md', 'README.md']));
    const cited = checked.flatMap((file) =>
      readFileSync(join(repo, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (TRACKER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });
});
