// A cheap run of each bench script, so none can rot: tiny worlds, one or two rounds.
// The bench itself (`npm run bench`) is not part of `npm test`; this only checks that
// every script runs to the end and prints every figure, never how fast anything is.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a bench script, plain JavaScript without types
import { ghMissing } from './gh.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

function runScript(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bench scripts (smoke)', () => {
  it('run.mjs prints every figure of the table with its target, measured on two Node binaries', async () => {
    // The second Node is this one again (--other-node): the merge of two runs into one
    // table is exercised without fetching another Node version.
    const r = await runScript(['test/bench/run.mjs', '--runs', '1', '--loop', '2', '--accounts', '300', '--large', '600', '--export-runs', '1', '--other-node', process.execPath]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS unset');
    // Each run announces itself on stderr: two runs.
    expect(r.stderr.match(/^bo bench: /gm)).toHaveLength(2);
    const major = process.versions.node.split('.')[0];
    expect(r.stdout).toContain(`| figure | Node ${major} | target (Node ${major}) | within | Node ${major} |`);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| figure'));
    const figures = rows.map((l) => l.split(' | ')[0]!.slice(2));
    expect(figures).toEqual([
      '`bo --version`',
      '`bo --help`',
      '`accounts list --json`, key from env, served sandbox',
      'the same, key from a real keychain',
      '2 × `bo addons expire <uid>` in a shell loop',
      '`accounts list --all --jsonl`, 300 accounts',
      'peak RSS of that export',
      '`bo --sandbox accounts list`, first run (cold)',
      'the same, warm',
      '`bo mcp`: tools/list, compact JSON',
      '`bo mcp`: an `accounts_list` call, round trip',
      'single executable: `bo --version`',
      'single executable: `bo --sandbox accounts list`, warm',
      'single executable: first run of a build (writes its files), `bo --version`',
      // Against gh over the TLS front where gh, nginx and openssl are installed (.ci/run
      // installs them), else one row saying what is missing.
      ...(ghMissing()
        ? ['single executable against gh']
        : [
            'single executable: `bo addons expire <uid>` over TLS',
            'single executable: `bo --version`, against node -e 0',
            'single executable: `bo --help`, against node -e 0',
            'single executable: `bo --sandbox accounts list`, warm, against node -e 0',
          ]),
    ]);
    // The figure, the stated run's value, the target, within, the other run's value
    // (none for the single executable, which is the same whichever Node runs the bench;
    // its first run of a build is reported, with no target).
    for (const row of rows) {
      if (row.startsWith('| single executable')) expect(row).toMatch(/\| ((≤|≥) [^|]+|reported) \| (yes|NO) \| - \|$/);
      else expect(row).toMatch(/\| (≤|≥) [^|]+ \| (yes|NO) \| [^|]*\d[^|]* \|$/);
    }
  }, 300_000);

  it('startup.mjs and paging.mjs run to the end', async () => {
    const startup = await runScript(['test/bench/startup.mjs', '1']);
    expect(startup.code, startup.stderr).toBe(0);
    expect(startup.stdout).toMatch(/bo --version +[\d.]+ ms/);
    const paging = await runScript(['test/bench/paging.mjs', '--accounts', '200', '--runs', '2']);
    expect(paging.code, paging.stderr).toBe(0);
    expect(paging.stdout).toContain('page of 100 accounts');
  }, 120_000);
});
