// Every exit code table says that a declined confirmation is exit 2 (nothing was
// changed): the docs' (docs/scripting.md), `bo help exit-codes`, and the line at the end of `bo --help`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBo } from '../helpers/run-bo.js';

const readme = readFileSync(fileURLToPath(new URL('../../docs/scripting.md', import.meta.url)), 'utf8');

describe('exit code 2 covers a declined confirmation, in every table', () => {
  it('the table of docs/scripting.md', () => {
    const row = readme.split('\n').find((l) => l.startsWith('| 2 |'));
    expect(row).toMatch(/a confirmation declined at the prompt \("Nothing was changed\."\)/);
  });

  it('bo help exit-codes', async () => {
    const r = await runBo(['help', 'exit-codes'], { columns: 200 });
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('a confirmation needed under --no-input, a confirmation declined at the prompt (nothing was changed)');
  });

  it('the last line of bo --help', async () => {
    const r = await runBo(['--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('2 usage (or a confirmation declined or needed)');
  });
});
