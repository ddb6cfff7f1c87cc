// Runs test/e2e/admin-session.sh (the built binary, --json and jq checks) against
// `bo sandbox serve --memory --port 0` as a real process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';

const root = join(import.meta.dirname, '..', '..');
let sandbox: E2eSandbox;
beforeAll(async () => {
  sandbox = await startE2eSandbox(root);
});
afterAll(() => sandbox?.close());

it('plays an admin session: list trials, extend them as a batch, expire, add a drip message, untag, dry-run a cancel', async () => {
  const fixtures = (await (await fetch(`${sandbox.url}/__sandbox/fixtures`)).json()) as { apiKey: { key: string; secret: string } };
  const cfg = tempConfig();
  const env = {
    PATH: process.env.PATH,
    HOME: cfg.root,
    BO_CONFIG_DIR: cfg.dir,
    BO_BASE_URL: sandbox.url,
    BO_API_KEY: fixtures.apiKey.key,
    BO_API_SECRET: fixtures.apiKey.secret,
  };
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', [join(root, 'test', 'e2e', 'admin-session.sh')], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  expect(result.stderr).toContain('admin session ok');
  expect(result.code, result.stderr).toBe(0);
}, 120_000);
