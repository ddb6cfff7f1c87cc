// config.json is read once per command: the profile is resolved when the context first
// needs it and handed down (src/connection.ts, credentials, confirmations) as values.
// Counted on the built binary with strace: every open of the file, whichever code opens it.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { binPath } from '../helpers/run-bin.js';
import { hasStrace } from '../helpers/strace.js';

/** How many times `bo args…` opened config.json, and how the run ended. */
function configOpens(args: string[], stdin = ''): { opens: number; status: number | null; stderr: string } {
  const t = tempConfig();
  mkdirSync(t.dir, { recursive: true });
  writeFileSync(t.configFile, `${JSON.stringify({ profiles: { sandbox: { timeout: 20 } } })}\n`);
  const log = join(t.root, 'strace.txt');
  const env = { PATH: process.env.PATH ?? '', HOME: t.root, ...t.env, BO_DATA_DIR: join(t.root, 'data') };
  const r = spawnSync('strace', ['-f', '-qq', '-e', 'trace=open,openat,openat2', '-o', log, process.execPath, binPath, ...args], {
    env,
    input: stdin,
    encoding: 'utf8',
  });
  const opens = readFileSync(log, 'utf8').split('\n').filter((line) => line.includes(t.configFile)).length;
  return { opens, status: r.status, stderr: r.stderr };
}

describe.skipIf(!hasStrace)('config.json, read once per command (the built bo, traced)', () => {
  it('--sandbox accounts list', () => {
    const run = configOpens(['--sandbox', 'accounts', 'list', '--limit', '2']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.opens).toBe(1);
  });

  it('--sandbox addons expire - (a batch from stdin, with confirmation rules read from the profile)', () => {
    // Uids the sandbox does not hold: each record still goes the whole way (exit 1, two 404s).
    const run = configOpens(['--sandbox', 'addons', 'expire', '-', '--yes'], 'subaddon_none1\nsubaddon_none2\n');
    expect(run.stderr).toContain('0 expired, 2 not found on the embedded sandbox');
    expect(run.opens).toBe(1);
  });
});
