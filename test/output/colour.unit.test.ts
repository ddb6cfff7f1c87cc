// Colour from one module (src/output/style.ts): the codes it writes, and no other
// file of src/ spelling an escape sequence of its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { colours256, RESET, style } from '../../src/output/style.js';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('style', () => {
  it('wraps text in SGR codes when colour is on, and leaves it alone when off', () => {
    const on = style(true);
    expect(on.green('ok')).toBe('\u001b[32mok\u001b[39m');
    expect(on.red('no')).toBe('\u001b[31mno\u001b[39m');
    expect(on.grey('│')).toBe('\u001b[90m│\u001b[39m');
    expect(on.bold('Uid')).toBe('\u001b[1mUid\u001b[22m');
    const off = style(false);
    for (const f of [off.green, off.red, off.grey, off.bold]) expect(f('text')).toBe('text');
  });

  it('gives the QR code its 256-colour pairs and the reset', () => {
    expect(colours256(16, 231)).toBe('\u001b[38;5;16;48;5;231m');
    expect(RESET).toBe('\u001b[0m');
  });

  it('is the only file of src/ that writes an escape sequence (neutralise.ts only matches them)', () => {
    const spelled = /\\u001b\[|\\x1b\[|\\u\{1b\}\[|\\033\[|\\e\[/i;
    const offenders = sourceFiles(SRC)
      .map((file) => relative(SRC, file))
      .filter((file) => file !== join('output', 'style.ts') && file !== join('api', 'neutralise.ts'))
      .filter((file) => spelled.test(readFileSync(join(SRC, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
