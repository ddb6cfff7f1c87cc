// The --insecure-storage credentials file under the shared lock: a set or delete waits
// for another process's write instead of overwriting it, temp copies of a killed
// writer are removed, and the profile is marked before the secret is written, so a
// failure (or a crash) between the two never strands a secret no profile points at.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCredentialStore } from '../../src/auth/credentials.js';
import { createFileStore } from '../../src/auth/stores/file.js';
import { readProfile } from '../../src/config/config.js';
import type { Credential } from '../../src/api/http-types.js';
import type { Globals, Io } from '../../src/context.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBo } from '../helpers/run-bo.js';
import { holdLock } from '../helpers/hold-lock.js';

const apiKey = (secret: string): Credential => ({ kind: 'apiKey', key: 'ak_1', secret });
const globals = (profile: string): Globals => ({
  profile, sandbox: false, json: false, jsonl: false, color: false, input: false, log: true, verbose: false, maxRetries: 3,
});
const io = (env: Record<string, string | undefined>): Io =>
  ({ env, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false }) as unknown as Io;

describe('credentials file under the lock', () => {
  it('a write waits for another process holding the lock, then keeps both credentials', async () => {
    const t = tempConfig();
    const store = createFileStore(t.env);
    await store.set('a', apiKey('first'));
    await holdLock(t.credentialsFile, 400);
    const started = Date.now();
    await store.set('b', apiKey('second'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { a: apiKey('first'), b: apiKey('second') } });
    expect(existsSync(`${t.credentialsFile}.lock`)).toBe(false);
  });

  it('removes temp copies of the file left by a killed writer on the next set or delete', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    const leftover = join(t.dir, '.credentials.json.999999.abc123.tmp');
    writeFileSync(leftover, JSON.stringify({ profiles: { a: apiKey('stranded-copy') } }), { mode: 0o600 });
    expect(await createFileStore(t.env).delete('a')).toBe(false);
    expect(readdirSync(t.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('bo logout clears such a temp copy even when the file holds nothing for the profile', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(join(t.dir, '.credentials.json.999999.zz.tmp'), '{"profiles":{"x":{"kind":"apiKey","key":"k","secret":"left-behind"');
    writeFileSync(t.configFile, JSON.stringify({ profiles: { x: { 'credential-store': 'file' } } }));
    const r = await runBo(['-p', 'x', 'logout'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(t.dir).sort()).toEqual(['config.json']);
  });

  it('a delete on a machine with no config folder creates nothing', async () => {
    const t = tempConfig();
    expect(await createFileStore(t.env).delete('a')).toBe(false);
    expect(existsSync(t.dir)).toBe(false);
  });
});

describe('--insecure-storage write order', () => {
  it('marks the profile before writing the secret: when the mark fails, no secret is written', async () => {
    const t = tempConfig();
    const store = await openCredentialStore(t.env, readProfile(t.env, globals('acme')), { insecure: true });
    // The config turns unreadable after the store was opened: the mark cannot be saved.
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, '{ "profiles": ');
    await expect(store.set('acme', apiKey('must-not-strand'))).rejects.toThrow(/is not valid JSON/);
    expect(existsSync(t.credentialsFile)).toBe(false);
  });

  it('the profile says `file` once the secret is there, and a failed write puts the mark back', async () => {
    const t = tempConfig();
    const store = await openCredentialStore(t.env, readProfile(t.env, globals('acme')), { insecure: true });
    await store.set('acme', apiKey('s1'));
    expect(t.readJson(t.configFile)).toEqual({ profiles: { acme: { 'credential-store': 'file' } } });

    const other = await openCredentialStore(t.env, readProfile(t.env, globals('beta')), { insecure: true });
    writeFileSync(t.credentialsFile, '{ not json');
    await expect(other.set('beta', apiKey('s2'))).rejects.toThrow(/credentials file .* is not valid JSON/);
    expect(t.readJson(t.configFile).profiles.beta['credential-store']).toBeUndefined();
  });
});
