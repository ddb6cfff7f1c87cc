// Which pager runs (output/pager.ts pagerCommand): BO_PAGER, else PAGER, else less when
// it is on the PATH; cat or an empty value means none. The pager itself, on a real
// terminal, is tested in test/e2e/pager-tmux.test.ts.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGER, pagerCommand } from '../../src/output/pager.js';

/** A PATH holding an executable `less` (a stand-in: only its presence counts). */
function pathWithLess(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-pager-'));
  writeFileSync(join(dir, 'less'), '#!/bin/sh\n');
  chmodSync(join(dir, 'less'), 0o755);
  return dir;
}

describe('the pager command', () => {
  const PATH = pathWithLess();
  const empty = mkdtempSync(join(tmpdir(), 'bo-pager-none-'));

  it('BO_PAGER wins over PAGER, which wins over less', () => {
    expect(pagerCommand({ PATH, BO_PAGER: 'most -s', PAGER: 'more' })).toBe('most -s');
    expect(pagerCommand({ PATH, PAGER: 'more' })).toBe('more');
    expect(pagerCommand({ PATH })).toBe(DEFAULT_PAGER);
    expect(DEFAULT_PAGER).toBe('less -FRXK');
  });

  it('cat or an empty value turns it off, BO_PAGER even when PAGER is set', () => {
    for (const off of ['cat', '', '  ', ' cat ']) {
      expect(pagerCommand({ PATH, BO_PAGER: off, PAGER: 'more' }), JSON.stringify(off)).toBeUndefined();
      expect(pagerCommand({ PATH, PAGER: off }), JSON.stringify(off)).toBeUndefined();
    }
  });

  it('no less on the PATH (or no PATH): no pager unless one is named', () => {
    expect(pagerCommand({ PATH: empty })).toBeUndefined();
    expect(pagerCommand({})).toBeUndefined();
    expect(pagerCommand({ PATH: empty, PAGER: 'more' })).toBe('more');
  });
});
