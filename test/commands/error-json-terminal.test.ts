// With --json (or --jq) an error is the `error:` line and, for a program reading stderr,
// the JSON error object; on a terminal a person reads the line alone, not the same error
// twice. The built binary with stderr on a pseudo-terminal (util-linux `script`), its
// stdout sent away, against the same command with stderr piped.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { binPath, runBin } from '../helpers/run-bin.js';

function env() {
  const config = tempConfig();
  return { ...config.env, BO_DATA_DIR: join(config.root, 'data') };
}

/** `bo args` with stderr on a terminal and stdout to /dev/null: what the terminal showed, and the exit code. */
function onTerminal(args: string[], extra: Record<string, string>): Promise<{ code: number | null; screen: string }> {
  const quoted = [process.execPath, binPath, ...args].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ');
  const childEnv = { PATH: process.env.PATH!, HOME: process.env.HOME!, TERM: 'xterm', ...extra };
  return new Promise((resolve, reject) => {
    // script reports the command's exit code as its own (-e).
    const child = spawn('script', ['-qec', `${quoted} >/dev/null`, '/dev/null'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let screen = '';
    child.stdout.on('data', (d) => (screen += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen: screen.replaceAll('\r', '') }));
  });
}

describe('an error under --json: once on a terminal, twice for a program', () => {
  it.each([
    [['--sandbox', '--json', 'accounts', 'get', 'acc_missing000'], 3, 'not_found'],
    [['--sandbox', '--jq', '.Name', 'accounts', 'get', 'acc_missing000'], 3, 'not_found'],
    [['--sandbox', '--json', 'accounts', 'list', '--limit', 'x'], 2, 'usage'],
  ])('bo %j', async (args, exit, code) => {
    const shown = await onTerminal(args, env());
    expect(shown.code).toBe(exit);
    expect(shown.screen).toMatch(/^error: /);
    expect(shown.screen).not.toContain('{"error"');

    const piped = await runBin(args, { env: env() });
    expect(piped.code).toBe(exit);
    expect(piped.stderr).toMatch(/^error: /);
    expect(JSON.parse(piped.stderr.split('\n').find((l) => l.startsWith('{'))!)).toMatchObject({ error: { code } });
  });
});
