// `bo` killed with SIGKILL at random points while it writes the config and the
// --insecure-storage credentials file: both files still parse, a lock left by a killed
// run never blocks the next one, and no secret is stranded: every secret in
// credentials.json is found by `bo auth status` for its profile, and `bo logout`
// removes it along with any temp copy a killed writer left.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/auth/stores/memory.js';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';

const ROUNDS = 10;
const PARALLEL = 4;
const PROFILES = 8;
const noKeychain = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', BO_KEYCHAIN_TIMEOUT: '2' };
const MARK = 'kill-test-secret';

/** Each profile's tenant: a loopback address of its own on a closed port (set-key checks the tenant first; a test never reaches past this machine). */
const tenantOf = (profile: string) => `https://127.0.0.${profile === 'calibration' ? 250 : Number(profile.slice(1)) + 2}:1`;

function setKey(env: Record<string, string>, profile: string, key: string, secret: string, killAfterMs?: number) {
  return runBin(['-p', profile, '--base-url', tenantOf(profile), 'auth', 'set-key', '--key', key, '--secret-stdin', '--insecure-storage'], {
    env,
    stdin: `${secret}\n`,
    onSpawn: killAfterMs === undefined ? undefined : (child) => void setTimeout(() => child.kill('SIGKILL'), killAfterMs),
  });
}

function configSet(env: Record<string, string>, profile: string, timeout: number, killAfterMs: number) {
  return runBin(['-p', profile, 'config', 'set', 'timeout', String(timeout)], {
    env,
    onSpawn: (child) => void setTimeout(() => child.kill('SIGKILL'), killAfterMs),
  });
}

describe('bo killed while writing', () => {
  it('leaves files that parse and no secret that auth status cannot see or logout cannot remove', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...noKeychain };
    // How long a whole run takes here, so the kills land throughout its writes.
    const started = Date.now();
    const calibration = await setKey(env, 'calibration', 'k', `${MARK}-calibration`);
    expect(calibration.code, calibration.stderr).toBe(0);
    const full = Date.now() - started;

    let killed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const runs = Array.from({ length: PARALLEL }, (_, j) => {
        const n = round * PARALLEL + j;
        const profile = `p${n % PROFILES}`;
        const delay = Math.round(full * (0.3 + Math.random() * 0.9));
        return n % 3 === 2
          ? configSet(env, profile, 1 + n, delay)
          : setKey(env, profile, `key${n}`, `${MARK}-${n}`, delay);
      });
      for (const r of await Promise.all(runs)) {
        if (r.signal === 'SIGKILL') killed++;
        else expect(r.code, r.stderr).toBe(0);
      }
      // Whatever the moment of the kill, both files are whole.
      for (const file of [t.configFile, t.credentialsFile]) {
        const text = readFileSync(file, 'utf8');
        expect(() => JSON.parse(text), `${file} after round ${round}`).not.toThrow();
      }
    }
    expect(killed).toBeGreaterThan(0);

    // Every secret in the file is reachable from its profile.
    const stored = t.readJson(t.credentialsFile).profiles as Record<string, { key: string; secret: string }>;
    for (const [profile, credential] of Object.entries(stored)) {
      const status = await runBo(['-p', profile, 'auth', 'status', '--json'], { env });
      expect(status.code, `${profile}: ${status.stderr}`).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ profile, source: 'file', key: credential.key });
    }

    // bo logout removes every trace, temp copies of killed writers included. (A memory
    // store stands in for the keychain, which logout also clears.)
    for (const profile of ['calibration', ...Array.from({ length: PROFILES }, (_, i) => `p${i}`)]) {
      const out = await runBo(['-p', profile, 'logout'], { env, credentials: createMemoryStore() });
      expect(out.code, `${profile}: ${out.stderr}`).toBe(0);
    }
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: {} });
    for (const name of readdirSync(t.dir)) {
      expect(readFileSync(join(t.dir, name), 'utf8'), name).not.toContain(MARK);
    }
    expect(readdirSync(t.dir).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock'))).toEqual([]);
    const cfg = t.readJson(t.configFile).profiles as Record<string, Record<string, unknown>>;
    for (const [profile, settings] of Object.entries(cfg)) expect(settings['credential-store'], profile).toBeUndefined();
  });
});
