// process.stdin is made on first use, and making it costs a start ~3 ms (for a pipe it
// loads node:net and opens a socket): `bo` makes it only for a command that reads its
// input. A preload on the built binary reports the first read of process.stdin.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';

function watched() {
  const cfg = tempConfig();
  const hook = join(cfg.root, 'stdin-hook.cjs');
  writeFileSync(
    hook,
    "const d = Object.getOwnPropertyDescriptor(process, 'stdin');\n" +
      "Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get() {\n" +
      "  process.on('exit', () => require('fs').writeSync(2, 'STDIN MADE\\n'));\n" +
      "  Object.defineProperty(process, 'stdin', d); return d.get.call(process);\n" +
      '} });\n',
  );
  return { ...cfg.env, HOME: cfg.root, BO_DATA_DIR: join(cfg.root, 'data'), NODE_OPTIONS: `--require ${hook}` };
}

describe('process.stdin', () => {
  it.each([
    [['--sandbox', 'accounts', 'list', '--limit', '2']],
    [['--sandbox', 'lists', 'list', '--json']],
    [['--version']],
    [['accounts', 'list', '--help']],
  ])('is not made by %j, whose input is never read', async (args) => {
    const r = await runBin(args, { env: watched(), stdin: 'unread\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('STDIN MADE');
  });

  it('is made by a command that reads its records from it (the preload does see it)', async () => {
    const r = await runBin(['--sandbox', 'accounts', 'extend-trial', '-', '--to', '2031-01-31', '--dry-run'], { env: watched(), stdin: 'acc_none\n' });
    expect(r.stderr).toContain('STDIN MADE');
  });
});
