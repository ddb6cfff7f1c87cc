// The keychain store against a real gnome-keyring (run under .ci/keyring.sh): what it
// writes is read back with secret-tool, the way another program would see it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore, KeychainUnavailableError } from '../../src/auth/stores/keychain.js';
import { AuthError } from '../../src/errors.js';
import type { Credential } from '../../src/api/http-types.js';
import { keyringEnv, secretToolCount, secretToolLookup, secretToolStore, startFakeBus, uniqueProfile, type FakeBus } from '../helpers/keyring.js';

const token: Credential = { kind: 'token', token: 'h.p.s', expiresAt: '2030-01-01T00:00:00.000Z', username: 'a@example.com' };
const apiKey: Credential = { kind: 'apiKey', key: 'ak_live_1', secret: 'sk_very_secret' };

// Called in each test, so that without a Secret Service every test fails with the hint.
const sessionEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', ...keyringEnv() });

describe('keychain store (Secret Service)', () => {
  it('stores JSON of the credential under service "bo", account = profile', async () => {
    const profile = uniqueProfile('kc-set');
    const store = createKeychainStore(sessionEnv());
    expect(store.backend).toBe('keychain');
    expect(store.location).toBe('Secret Service (service "bo")');
    await store.set(profile, token);
    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toEqual(token);
    expect(await store.get(profile)).toEqual(token);
    await store.delete(profile);
  });

  it('overwrites in place: one item per profile, holding the newest credential', async () => {
    const profile = uniqueProfile('kc-over');
    const store = createKeychainStore(sessionEnv());
    await store.set(profile, token);
    await store.set(profile, apiKey);
    expect(secretToolCount(profile)).toBe(1);
    expect(JSON.parse(secretToolLookup(profile) ?? 'null')).toEqual(apiKey);
    expect(await store.get(profile)).toEqual(apiKey);
    await store.delete(profile);
  });

  it('deletes: the item is gone for secret-tool too; a second delete reports false', async () => {
    const profile = uniqueProfile('kc-del');
    const other = uniqueProfile('kc-keep');
    const store = createKeychainStore(sessionEnv());
    await store.set(profile, apiKey);
    await store.set(other, token);
    expect(await store.delete(profile)).toBe(true);
    expect(secretToolLookup(profile)).toBeNull();
    expect(await store.get(profile)).toBeNull();
    expect(await store.delete(profile)).toBe(false);
    expect(JSON.parse(secretToolLookup(other) ?? 'null')).toEqual(token);
    await store.delete(other);
  });

  it('reports an item that is not a bo credential, without overwriting it', async () => {
    const profile = uniqueProfile('kc-foreign');
    secretToolStore(profile, 'not json');
    const err = await createKeychainStore(sessionEnv()).get(profile).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toContain(`the keychain item for profile "${profile}" (service "bo") is not a bo credential`);
    expect(secretToolLookup(profile)).toBe('not json');
    await createKeychainStore(sessionEnv()).delete(profile);
  });

  it('no Secret Service (bus address points nowhere): a quick AuthError that explains --insecure-storage', async () => {
    const store = createKeychainStore({ PATH: sessionEnv().PATH!, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
    const started = Date.now();
    const err = await store.get(uniqueProfile('kc-none')).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).exitCode).toBe(4);
    expect((err as AuthError).message).toMatch(/^the OS keychain is not available \(Secret Service: .*\/nonexistent\/bus/);
    expect((err as AuthError).hint).toContain('--insecure-storage');
  });

  describe('a bus that accepts and never answers', () => {
    let bus: FakeBus;
    beforeAll(async () => {
      bus = await startFakeBus();
    });
    afterAll(() => bus.close());

    it('gives up after BO_KEYCHAIN_TIMEOUT seconds instead of hanging', async () => {
      const store = createKeychainStore({
        PATH: sessionEnv().PATH!,
        DBUS_SESSION_BUS_ADDRESS: bus.address,
        BO_KEYCHAIN_TIMEOUT: '1',
      });
      const started = Date.now();
      const err = await store.set(uniqueProfile('kc-silent'), apiKey).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(950);
      // Under the 10 s default: the limit set is the one used (the message says so too).
      expect(elapsed).toBeLessThan(9_000);
      expect(err).toBeInstanceOf(KeychainUnavailableError);
      expect((err as Error).message).toContain('no answer within 1 s; BO_KEYCHAIN_TIMEOUT sets the limit');
    });
  });

  it('rejects a malformed BO_KEYCHAIN_TIMEOUT, naming it', () => {
    expect(() => createKeychainStore({ BO_KEYCHAIN_TIMEOUT: 'soon' })).toThrow(/BO_KEYCHAIN_TIMEOUT must be a number of seconds from 0.1 to 86400 \(24 h\)/);
  });
});
