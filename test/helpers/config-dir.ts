// A fresh config folder per test, so runs never touch the developer's own config.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A temp folder; `env` points BO_CONFIG_DIR at `<it>/bo` (created on first write) and
 * BO_STATE_DIR (the journal of changes) at `<it>/state`.
 */
export function tempConfig() {
  const root = mkdtempSync(join(tmpdir(), 'bo-config-'));
  made.push(root);
  const dir = join(root, 'bo');
  return {
    root,
    dir,
    env: { BO_CONFIG_DIR: dir, BO_STATE_DIR: join(root, 'state') } as Record<string, string>,
    stateDir: join(root, 'state'),
    configFile: join(dir, 'config.json'),
    credentialsFile: join(dir, 'credentials.json'),
    readJson: (path: string) => JSON.parse(readFileSync(path, 'utf8')) as any,
    mode: (path: string) => statSync(path).mode & 0o777,
  };
}
