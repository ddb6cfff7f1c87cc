// Twenty real `bo` processes (the built binary) writing one config folder at once keep
// every write: config.json and credentials.json are changed under one lock (lock,
// re-read, change, temp file, rename), so no run overwrites another's change.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin, type RunBinResult } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';

const N = 20;
const TRIALS = 3;
const profiles = Array.from({ length: N }, (_, i) => `p${i}`);
// Loopback addresses on a closed port: `auth set-key` checks the tenant first, and a test
// never reaches past this machine (each profile its own origin).
const url = (i: number) => `https://127.0.0.${i + 2}:1`;
// No keychain: these runs must never need it.
const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', BO_KEYCHAIN_TIMEOUT: '2' };

function expectAllOk(results: RunBinResult[]): void {
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, signal: null });
}

/** Only the two files remain: no lock or temp file is left behind. */
function expectNoLeftovers(dir: string): void {
  expect(readdirSync(dir).sort()).toEqual(expect.arrayContaining(['config.json']));
  expect(readdirSync(dir).filter((n) => n.endsWith('.lock') || n.endsWith('.tmp'))).toEqual([]);
}

describe('concurrent bo processes', () => {
  it(`${N} parallel \`bo -p pN config set base-url\` keep all ${N} profiles, in ${TRIALS} trials`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const t = tempConfig();
      const env = { ...t.env, ...noKeychain };
      const results = await Promise.all(profiles.map((p, i) => runBin(['-p', p, 'config', 'set', 'base-url', url(i)], { env })));
      expectAllOk(results);
      const stored = t.readJson(t.configFile).profiles;
      expect(Object.keys(stored).sort(), `trial ${trial}`).toEqual([...profiles].sort());
      profiles.forEach((p, i) => expect(stored[p]).toEqual({ 'base-url': url(i) }));
      expectNoLeftovers(t.dir);
    }
  });

  it(`${N} parallel \`bo auth set-key --insecure-storage --secret-stdin\` keep all ${N} credentials, in ${TRIALS} trials`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const t = tempConfig();
      const env = { ...t.env, ...noKeychain };
      const secret = (i: number) => `secret-${trial}-${i}`;
      const results = await Promise.all(
        profiles.map((p, i) =>
          runBin(['-p', p, '--base-url', url(i), 'auth', 'set-key', '--key', `key${i}`, '--secret-stdin', '--insecure-storage'], {
            env,
            stdin: `${secret(i)}\n`,
          }),
        ),
      );
      expectAllOk(results);
      results.forEach((r) => expect(r.stderr).toContain('Stored API key'));
      const creds = t.readJson(t.credentialsFile).profiles;
      expect(Object.keys(creds).sort(), `trial ${trial}`).toEqual([...profiles].sort());
      // Each key is bound to the origin it was stored against.
      profiles.forEach((p, i) => expect(creds[p]).toEqual({ kind: 'apiKey', key: `key${i}`, secret: secret(i), origin: url(i) }));
      const cfg = t.readJson(t.configFile).profiles;
      profiles.forEach((p) => expect(cfg[p]['credential-store'], p).toBe('file'));
      expect(t.mode(t.credentialsFile)).toBe(0o600);
      expectNoLeftovers(t.dir);
      // What a user sees afterwards: each profile finds its own key in the file.
      for (const [i, p] of profiles.entries()) {
        const status = await runBo(['-p', p, 'auth', 'status', '--json'], { env });
        expect(status.code, status.stderr).toBe(0);
        expect(JSON.parse(status.stdout)).toMatchObject({ source: 'file', key: `key${i}` });
      }
    }
  });

  it('config set and set-key on the same profiles at once lose neither the setting nor the credential', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...noKeychain };
    const half = profiles.slice(0, N / 2);
    const results = await Promise.all(
      half.flatMap((p, i) => [
        runBin(['-p', p, 'config', 'set', 'timeout', String(10 + i)], { env }),
        runBin(['-p', p, '--base-url', url(i), 'auth', 'set-key', '--key', `key${i}`, '--secret-stdin', '--insecure-storage'], { env, stdin: `s${i}\n` }),
      ]),
    );
    expectAllOk(results);
    const cfg = t.readJson(t.configFile).profiles;
    const creds = t.readJson(t.credentialsFile).profiles;
    half.forEach((p, i) => {
      expect(cfg[p], p).toEqual({ timeout: 10 + i, 'credential-store': 'file', 'base-url': url(i) });
      expect(creds[p], p).toEqual({ kind: 'apiKey', key: `key${i}`, secret: `s${i}`, origin: url(i) });
    });
    expectNoLeftovers(t.dir);
  });
});
