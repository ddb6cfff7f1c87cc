// --jsonl --jq streams: the built `bo`, as a real process under /usr/bin/time -v, runs
// `.Uid` on each of 100,000 accounts from a served sandbox, a page of lines per jq call,
// and its peak resident memory stays within 15 % of the same export without --jq
// (test/output/export-memory.test.ts measures that export alone). Memory only: the
// rate is the bench's business (README "Performance").

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs helper of the bench, without types
import { benchEnv, serveSandbox } from '../bench/serve-sandbox.mjs';
import { binPath, runBin } from '../helpers/run-bin.js';

const ACCOUNTS = 100_000;

describe('--all --jsonl --jq over 100,000 accounts (built binary, served sandbox)', () => {
  let served: { url: string; child: import('node:child_process').ChildProcess };
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'bo-jq-export-'));
    const base = benchEnv() as Record<string, string>;
    for (const name of ['NODE_OPTIONS', 'BO_SANDBOX', 'BO_PROFILE', 'BO_BASE_URL', 'BO_TOKEN', 'BO_API_KEY', 'BO_API_SECRET', 'BO_DEBUG', 'CLICOLOR_FORCE']) delete base[name];
    Object.assign(base, { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data'), NO_COLOR: '1' });
    served = await serveSandbox({ args: ['--accounts', String(ACCOUNTS)], env: base, bo: binPath });
    const fixtures = (await (await fetch(`${served.url}/__sandbox/fixtures`)).json()) as { apiKey: { key: string; secret: string; scheme: string } };
    env = { ...base, BO_BASE_URL: served.url, BO_API_KEY: fixtures.apiKey.key, BO_API_SECRET: fixtures.apiKey.secret };
    if (fixtures.apiKey.scheme !== 'bo') env.BO_API_KEY_SCHEME = fixtures.apiKey.scheme;
  }, 120_000);

  afterAll(async () => {
    if (served) {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGINT');
      await exited;
    }
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  });

  // A peak varies from run to run with the collector's timing (Node 20: 115-165 MiB for
  // this export): the highest of two runs each, as the bench compares peaks.
  it('prints every Uid once, with peak RSS within 15 % of the export without --jq', async () => {
    const peaks = { plain: 0, jq: 0 };
    let plainUids: string[] = [];
    for (let round = 0; round < 2; round++) {
      const plain = await runBin(['accounts', 'list', '--all', '--jsonl'], { env, timeoutMs: 300_000, measure: true });
      expect(plain.code, plain.stderr.slice(-500)).toBe(0);
      plainUids = plain.stdout.replace(/\n$/, '').split('\n').map((line) => (JSON.parse(line) as { Uid: string }).Uid);
      expect(plainUids).toHaveLength(ACCOUNTS);
      peaks.plain = Math.max(peaks.plain, plain.peakMb);

      const filtered = await runBin(['accounts', 'list', '--all', '--jsonl', '--jq', '.Uid'], { env, timeoutMs: 300_000, measure: true });
      expect(filtered.code, filtered.stderr.slice(-500)).toBe(0);
      const uids = filtered.stdout.replace(/\n$/, '').split('\n');
      expect(uids).toHaveLength(ACCOUNTS);
      expect(new Set(uids).size).toBe(ACCOUNTS);
      expect(uids).toEqual(plainUids);
      peaks.jq = Math.max(peaks.jq, filtered.peakMb);
    }
    expect(peaks.jq, `peak RSS with --jq ${peaks.jq.toFixed(1)} MiB, without ${peaks.plain.toFixed(1)} MiB`).toBeLessThanOrEqual(peaks.plain * 1.15);
  }, 900_000);
});
