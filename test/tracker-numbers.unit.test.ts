// Comments state their reasons: a decision is a D-number of docs/decisions.md or a plain
// reason, never a tracker's issue number, which the repository does not hold.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : /\.(ts|mjs|cjs|js)$/.test(e.name) ? [`${dir}/${e.name}`] : []));
}

/** `issue 30`, `issues 30-34`, `(#41)`: a tracker's number. */
const TRACKER = /\bissues? #?\d+|\(#\d+\)/i;

describe('src/', () => {
  it('finds a tracker number where there is one', () => {
    expect(['// see issue 33', '// issues 30–34', '// (#41)'].every((line) => TRACKER.test(line))).toBe(true);
    expect(['// D33', '// an issue of the API', '// 33 issues'].some((line) => TRACKER.test(line))).toBe(false);
  });

  it('cites no tracker issue number', () => {
    const cited = files('src').flatMap((file) =>
      readFileSync(join(repo, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (TRACKER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(cited).toEqual([]);
  });
});
