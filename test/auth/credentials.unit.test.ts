import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forgetCredentials, openCredentialStore, resolveCredential } from '../../src/auth/credentials.js';
import { createFileStore } from '../../src/auth/stores/file.js';
import { readProfile } from '../../src/config/config.js';
import { createEnvStore, credentialFromEnv, envCredentialNames } from '../../src/auth/stores/env.js';
import { createMemoryStore } from '../../src/auth/stores/memory.js';
import type { Globals, Io } from '../../src/context.js';
import type { Credential } from '../../src/api/http-types.js';
import { tempConfig } from '../helpers/config-dir.js';

const globals = (profile = ''): Globals => ({
  profile, sandbox: false, json: false, jsonl: false, color: false, input: false, log: true, verbose: false, maxRetries: 3,
});
const io = (env: Record<string, string | undefined>): Io =>
  ({ env, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false }) as unknown as Io;
const token: Credential = { kind: 'token', token: 'aaa.bbb.ccc', expiresAt: '2030-01-01T00:00:00.000Z', username: 'a@example.com' };
const apiKey: Credential = { kind: 'apiKey', key: 'ak_1', secret: 'sekret' };

describe('file store', () => {
  it('keeps one credential per profile in a 0600 file, and deletes one without the others', async () => {
    const t = tempConfig();
    const store = createFileStore(t.env);
    expect(store.backend).toBe('file');
    expect(store.location).toBe(t.credentialsFile);
    expect(await store.get('a')).toBeNull();
    await store.set('a', token);
    await store.set('b', apiKey);
    expect(t.mode(t.credentialsFile)).toBe(0o600);
    expect(t.mode(t.dir)).toBe(0o700);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { a: token, b: apiKey } });
    expect(await createFileStore(t.env).get('b')).toEqual(apiKey);
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { b: apiKey } });
  });

  it('reports a corrupt file without quoting it, and leaves it untouched', async () => {
    const t = tempConfig();
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.credentialsFile, '{"profiles": {"a": {"kind":"apiKey","secret":"s3cr3t"');
    const store = createFileStore(t.env);
    const err = await store.set('b', apiKey).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(`the credentials file ${t.credentialsFile} is not valid JSON; fix or remove it`);
    expect(readFileSync(t.credentialsFile, 'utf8')).toContain('s3cr3t');
    writeFileSync(t.credentialsFile, JSON.stringify({ profiles: { a: { kind: 'token' } } }));
    await expect(store.get('a')).rejects.toThrow(/holds no valid credential for profile "a"/);
  });
});

describe('env store', () => {
  it('reads BO_TOKEN, or BO_API_KEY with BO_API_SECRET; a half pair is an error naming the missing one', () => {
    expect(credentialFromEnv({})).toBeNull();
    expect(credentialFromEnv({ BO_TOKEN: 't', BO_API_KEY: 'k', BO_API_SECRET: 's' })).toEqual({ kind: 'token', token: 't' });
    expect(credentialFromEnv({ BO_API_KEY: 'k', BO_API_SECRET: 's' })).toEqual({ kind: 'apiKey', key: 'k', secret: 's' });
    expect(() => credentialFromEnv({ BO_API_KEY: 'k' })).toThrow(/BO_API_SECRET is not/);
    expect(() => credentialFromEnv({ BO_API_SECRET: 's' })).toThrow(/BO_API_KEY is not/);
  });

  it('an empty (or blank) variable counts as not set; half a pair is then an auth error', () => {
    expect(credentialFromEnv({ BO_TOKEN: '', BO_API_KEY: '', BO_API_SECRET: ' ' })).toBeNull();
    expect(credentialFromEnv({ BO_TOKEN: '', BO_API_KEY: 'k', BO_API_SECRET: 's' })).toEqual({ kind: 'apiKey', key: 'k', secret: 's' });
    expect(() => credentialFromEnv({ BO_API_KEY: 'k', BO_API_SECRET: '' })).toThrow(
      expect.objectContaining({ name: 'AuthError', code: 'auth', message: expect.stringContaining('BO_API_SECRET is not') }),
    );
    expect(envCredentialNames({ BO_TOKEN: '', BO_API_KEY: 'k', BO_API_SECRET: 's' })).toEqual(['BO_API_KEY', 'BO_API_SECRET']);
  });

  it('is read-only', async () => {
    const store = createEnvStore({ BO_TOKEN: 't' });
    expect(await store.get('any')).toEqual({ kind: 'token', token: 't' });
    await expect(store.set('any', apiKey)).rejects.toThrow(/cannot be changed/);
    await expect(store.delete('any')).rejects.toThrow(/cannot be changed/);
  });
});

describe('openCredentialStore', () => {
  it('uses the keychain unless the profile says file', async () => {
    const t = tempConfig();
    expect((await openCredentialStore(t.env, readProfile(t.env, globals()))).backend).toBe('keychain');
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(t.configFile, JSON.stringify({ profiles: { ci: { 'credential-store': 'file' } } }));
    expect((await openCredentialStore(t.env, readProfile(t.env, globals('ci')))).backend).toBe('file');
    expect((await openCredentialStore(t.env, readProfile(t.env, globals('other')))).backend).toBe('keychain');
  });

  it('insecure: stores in the file and records the choice only once something is stored', async () => {
    const t = tempConfig();
    const store = await openCredentialStore(t.env, readProfile(t.env, globals('ci')), { insecure: true });
    expect(store.backend).toBe('file');
    expect(() => readFileSync(t.configFile)).toThrow(/ENOENT/);
    await store.set('ci', token);
    expect(t.readJson(t.configFile)).toEqual({ profiles: { ci: { 'credential-store': 'file' } } });
    expect(readFileSync(t.configFile, 'utf8')).not.toContain(token.kind === 'token' ? token.token : '');
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { ci: token } });
    expect(await (await openCredentialStore(t.env, readProfile(t.env, globals('ci')))).get('ci')).toEqual(token);
  });
});

describe('resolveCredential', () => {
  const ctxWith = (env: Record<string, string>, store = createMemoryStore(), profile = '') => ({
    io: io(env),
    globals: globals(profile),
    credentials: async () => store,
    profile: async () => readProfile(env, globals(profile)),
  });

  it('prefers the environment over the stored credential', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ default: apiKey });
    const r = await resolveCredential(ctxWith({ ...t.env, BO_TOKEN: 'envtoken' }, store));
    expect(r).toEqual({ credential: { kind: 'token', token: 'envtoken' }, source: 'env', backend: 'env', location: 'BO_TOKEN', profile: 'default' });
  });

  it('falls back to the profile store, then to none', async () => {
    const t = tempConfig();
    const store = createMemoryStore({ acme: apiKey });
    expect(await resolveCredential(ctxWith(t.env, store, 'acme'))).toMatchObject({ credential: apiKey, source: 'store', backend: 'memory' });
    expect(await resolveCredential(ctxWith(t.env, store, 'other'))).toMatchObject({ credential: null, source: 'none', backend: 'none' });
  });
});

describe('forgetCredentials', () => {
  it('removes the profile from the injected keychain stand-in and the file', async () => {
    const t = tempConfig();
    const file = createFileStore(t.env);
    await file.set('p', token);
    await file.set('q', token);
    const memory = createMemoryStore({ p: apiKey });
    const results = await forgetCredentials({ io: io(t.env), credentials: async () => memory }, readProfile(t.env, globals('p')));
    expect(results.map((r) => [r.backend, r.removed])).toEqual([['memory', true], ['file', true]]);
    expect(memory.items.size).toBe(0);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { q: token } });
  });
});
