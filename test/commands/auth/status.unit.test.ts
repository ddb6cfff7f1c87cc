import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { makeKey, signJwt } from '../../helpers/sign-jwt.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';
import type { Clock } from '../../../src/context.js';

const key = makeKey('k1');
const claims = { sub: 'person-1', PersonUid: 'person-1', AccountUid: 'account-9', iat: 1_700_000_000, exp: 1_900_000_000 };
const token = signJwt(claims, key);
const clockAt = (iso: string): Clock => ({ now: () => new Date(iso), sleep: async () => undefined });
const before = clockAt('2026-01-01T00:00:00Z');

describe('bo auth status', () => {
  it('not signed in: exit 4 with a hint, nothing on stdout', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'status'], { env: t.env, credentials: createMemoryStore() });
    expect(r).toMatchObject({ code: 4, stdout: '' });
    expect(r.stderr).toBe(
      'error: not signed in (profile "default")\n' +
        'hint: run bo login or bo auth set-key, or set BO_TOKEN, or BO_API_KEY and BO_API_SECRET\n',
    );
  });

  it('a stored token: profile, base URL, kind, backend, claims, expiry, and never the token', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { acme: { 'base-url': 'https://acme.example.com' } } }));
    const store = createMemoryStore({ acme: { kind: 'token', token, username: 'ann@example.com' } });
    const r = await runBo(['-p', 'acme', 'auth', 'status'], { env: t.env, credentials: store, clock: before });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe(
      [
        'Profile\tacme',
        'Base URL\thttps://acme.example.com',
        'Kind\ttoken',
        'Source\tmemory: memory (tests)',
        'Belongs to\thttps://acme.example.com',
        'User\tann@example.com',
        'PersonUid\tperson-1',
        'AccountUid\taccount-9',
        'Expires\t2030-03-17T17:46:40.000Z',
        '',
      ].join('\n'),
    );
  });

  it('--json: an object with no secret in it', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token } });
    const r = await runBo(['auth', 'status', '--json'], { env: t.env, credentials: store, clock: before });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      baseUrl: null,
      kind: 'token',
      source: 'memory',
      location: 'memory (tests)',
      origin: null,
      username: null,
      personUid: 'person-1',
      accountUid: 'account-9',
      key: null,
      expiresAt: '2030-03-17T17:46:40.000Z',
      expired: false,
    });
    expect(r.stdout + r.stderr).not.toContain(token.split('.')[2]);
  });

  it('an API key shows the key id only, never the secret', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'apiKey', key: 'ak_live_1', secret: 'sk_hush' } });
    const r = await runBo(['auth', 'status'], { env: t.env, credentials: store });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Kind\tAPI key\n');
    expect(r.stdout).toContain('Key\tak_live_1\n');
    expect(r.stdout + r.stderr).not.toContain('sk_hush');
  });

  it('environment credentials win over the stored ones and are named', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'apiKey', key: 'stored', secret: 's' } });
    const r = await runBo(['auth', 'status', '--json'], { env: { ...t.env, BO_TOKEN: token }, credentials: store, clock: before });
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'token', source: 'env', location: 'BO_TOKEN', personUid: 'person-1' });
    const keys = await runBo(['auth', 'status'], { env: { ...t.env, BO_API_KEY: 'envkey', BO_API_SECRET: 'envsecret' }, credentials: store });
    expect(keys.stdout).toContain('Source\tenvironment (BO_API_KEY + BO_API_SECRET)\n');
    expect(keys.stdout).toContain('Key\tenvkey\n');
    expect(keys.stdout).not.toContain('envsecret');
  });

  it('a half-set key pair in the environment is exit 4 naming the missing variable', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'status'], { env: { ...t.env, BO_API_KEY: 'k' }, credentials: createMemoryStore() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('BO_API_SECRET is not');
  });

  it('an expired token prints the status, then exit 4', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: { kind: 'token', token } });
    const r = await runBo(['auth', 'status'], { env: t.env, credentials: store, clock: clockAt('2031-01-01T00:00:00Z') });
    expect(r.code).toBe(4);
    expect(r.stdout).toContain('Expires\t2030-03-17T17:46:40.000Z (expired)\n');
    expect(r.stderr).toContain('error: the token of profile "default" expired at 2030-03-17T17:46:40.000Z');
  });

  it('names the file backend of an --insecure-storage profile (no keychain involved)', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { ci: { 'credential-store': 'file' } } }));
    writeFileSync(t.credentialsFile, JSON.stringify({ profiles: { ci: { kind: 'apiKey', key: 'k1', secret: 's1' } } }));
    const r = await runBo(['-p', 'ci', 'auth', 'status', '--json'], { env: t.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ source: 'file', location: t.credentialsFile, key: 'k1' });
  });

  it('a malformed BO_KEYCHAIN_TIMEOUT is exit 2 naming it', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'status'], { env: { ...t.env, BO_KEYCHAIN_TIMEOUT: 'soon' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: BO_KEYCHAIN_TIMEOUT must be a number of seconds from 0.1 to 86400 (24 h), got "soon"\n');
  });
});
