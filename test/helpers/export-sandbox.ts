// A `bo sandbox serve` (the built binary) seeded with many accounts, and the environment
// of a `bo` run against it with its API key, in a temporary home: what the export memory
// tests measure against. Stopped with SIGINT, as a person stops it.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error a plain .mjs helper of the bench, without types
import { benchEnv, serveSandbox } from '../bench/serve-sandbox.mjs';
import { binPath } from './run-bin.js';
import { afterAll, beforeAll } from 'vitest';

export interface ExportSandbox {
  /** The environment of a `bo` run against the served sandbox. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startExportSandbox(accounts: number): Promise<ExportSandbox> {
  const home = mkdtempSync(join(tmpdir(), 'bo-export-'));
  const base = benchEnv() as Record<string, string>;
  for (const name of ['NODE_OPTIONS', 'BO_SANDBOX', 'BO_PROFILE', 'BO_BASE_URL', 'BO_TOKEN', 'BO_API_KEY', 'BO_API_SECRET', 'BO_DEBUG', 'CLICOLOR_FORCE']) delete base[name];
  Object.assign(base, { HOME: home, XDG_CACHE_HOME: join(home, 'cache'), BO_CONFIG_DIR: join(home, 'config'), BO_DATA_DIR: join(home, 'data'), NO_COLOR: '1' });
  const served = (await serveSandbox({ args: ['--accounts', String(accounts)], env: base, bo: binPath })) as { url: string; child: ChildProcess };
  const fixtures = (await (await fetch(`${served.url}/__sandbox/fixtures`)).json()) as { apiKey: { key: string; secret: string; scheme: string } };
  const env: Record<string, string> = { ...base, BO_BASE_URL: served.url, BO_API_KEY: fixtures.apiKey.key, BO_API_SECRET: fixtures.apiKey.secret };
  if (fixtures.apiKey.scheme !== 'bo') env.BO_API_KEY_SCHEME = fixtures.apiKey.scheme;
  return {
    env,
    close: async () => {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGINT');
      await exited;
      rmSync(home, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * The served sandbox of `accounts` accounts for the suite it is called in: started
 * before its tests, closed after them. `env` is a `bo` run's environment against it.
 */
export function exportSandboxForSuite(accounts: number): { readonly env: Record<string, string> } {
  let sandbox: ExportSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startExportSandbox(accounts);
  }, 120_000);
  afterAll(() => sandbox?.close());
  return {
    get env() {
      return sandbox!.env;
    },
  };
}
