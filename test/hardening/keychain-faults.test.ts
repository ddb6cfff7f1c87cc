// Keychain faults, each made of real parts (private-bus.ts): no session bus; a bus with
// no Secret Service on it; gnome-keyring with its collection locked and no prompter on
// the bus; an unlock prompt dismissed (the system prompter, gcr-prompter, is started by
// the bus and closes unanswered: no display); gnome-keyring frozen by SIGSTOP. The
// built `bo` (which runs the keychain helper as a child) must stop within the timeout
// with exit 4 and a message naming the keychain and --insecure-storage, write the
// credential nowhere else, send no request with a credential it could not read, and
// with --insecure-storage store it in the 0600 file instead.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { startPrivateBus, type PrivateBus } from './private-bus.js';

const SECRET = 'kcfault-canary-4711-secret';
// The hung keychain is waited for this long: under the D-Bus library's own reply timeout
// (about 2 s, which ends in its "Did not receive a reply" instead), so bo's limit is what
// fires. The other faults answer at once, so they keep the default limit (10 s) and a
// loaded machine cannot turn them into a timeout.
const HUNG_TIMEOUT_S = 1;
const DEFAULT_TIMEOUT_S = 10;
let recorder: FaultServer;
let injected = 0;
let leaks = 0;
const buses: PrivateBus[] = [];

beforeAll(async () => {
  recorder = await startFaultServer();
});
afterEach(async () => {
  for (const bus of buses.splice(0)) await bus.close();
});
afterAll(async () => {
  await recorder.close();
  console.log(`[hardening] keychain faults: ${injected} runs under 5 faults (no bus, no Secret Service, locked, dismissed unlock, hung), ${leaks} credentials written elsewhere, ${recorder.requests.length} requests sent`);
});

interface Fault {
  name: string;
  /** The environment of `bo` under the fault; `stored` is a profile whose credential is in the keychain (when there is one). */
  make(t: ReturnType<typeof tempConfig>): Promise<Record<string, string>>;
  message: RegExp;
  /** BO_KEYCHAIN_TIMEOUT for the run. */
  timeoutS?: number;
}

/** A keychain item for profile "stored", bound to the recorder's origin, written by bo itself while the keyring was healthy. */
async function storeWhileHealthy(bus: PrivateBus, t: ReturnType<typeof tempConfig>): Promise<void> {
  await bus.startKeyring('unlocked');
  const r = await runBin(['-p', 'stored', '--base-url', recorder.url, 'auth', 'set-key', '--key', 'stored-key', '--secret-stdin'], {
    env: { ...t.env, ...bus.env },
    stdin: `${SECRET}-stored\n`,
  });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain('Secret Service');
}

async function bus(activation: boolean): Promise<PrivateBus> {
  const b = await startPrivateBus({ activation });
  buses.push(b);
  return b;
}

const faults: Fault[] = [
  {
    name: 'no session bus',
    make: async (t) => {
      await storeWhileHealthy(await bus(false), t);
      return { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bo-bus' };
    },
    message: /Secret Service: /,
  },
  {
    name: 'a bus with no Secret Service on it',
    make: async (t) => {
      const b = await bus(false);
      await storeWhileHealthy(b, t);
      await b.stopKeyring();
      return b.env;
    },
    message: /Secret Service: no Secret Service is running on the session bus/,
  },
  {
    name: 'a locked collection, no prompter on the bus',
    make: async (t) => {
      const b = await bus(false);
      await storeWhileHealthy(b, t);
      await b.startKeyring('locked');
      return b.env;
    },
    message: /Secret Service: .*unlock prompt was dismissed/,
  },
  {
    name: 'an unlock prompt dismissed (gcr-prompter started by the bus, closed unanswered)',
    make: async (t) => {
      const b = await bus(true);
      await storeWhileHealthy(b, t);
      await b.startKeyring('locked');
      return b.env;
    },
    message: /Secret Service: .*unlock prompt was dismissed/,
  },
  {
    name: 'a keychain that hangs (gnome-keyring stopped by SIGSTOP)',
    make: async (t) => {
      const b = await bus(false);
      await storeWhileHealthy(b, t);
      b.freezeKeyring();
      return b.env;
    },
    message: new RegExp(`no answer within ${HUNG_TIMEOUT_S} s; BO_KEYCHAIN_TIMEOUT sets the limit`),
    timeoutS: HUNG_TIMEOUT_S,
  },
];

/** Every file bo left in the config folder, and whether any holds the canary. */
function filesHolding(dir: string, canary: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => readFileSync(join(dir, n), 'utf8').includes(canary));
}

function expectKeychainMessage(stderr: string, message: RegExp, reading = false): void {
  const lines = stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(reading ? /^error: not signed in \(profile "stored"\): the OS keychain is not available \(/ : /^error: the OS keychain is not available \(/);
  expect(lines[0]).toMatch(message);
  expect(lines.slice(1).join('\n')).toMatch(reading ? /^hint: sign in again with bo -p stored login --insecure-storage \(a 0600 file\)/ : /^hint: pass --insecure-storage/);
  expect(stderr).not.toMatch(/\n\s+at |TypeError|ReferenceError|node:internal/);
}

describe.each(faults)('keychain fault: $name', (fault) => {
  it('storing a credential: exit 4 within the timeout, a clear message, nothing written anywhere else', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...(await fault.make(t)), BO_KEYCHAIN_TIMEOUT: String(fault.timeoutS ?? DEFAULT_TIMEOUT_S) };
    const before = filesHolding(t.dir, SECRET).length;
    const started = Date.now();
    injected++;
    const r = await runBin(['-p', 'new', '--base-url', 'http://127.0.0.1:1', 'auth', 'set-key', '--key', 'new-key', '--secret-stdin'], { env, stdin: `${SECRET}\n` });
    const elapsed = Date.now() - started;
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toBe('');
    expectKeychainMessage(r.stderr, fault.message);
    expect(r.stderr).not.toContain(SECRET);
    // Within the limit (plus start-up): at once for most faults, after HUNG_TIMEOUT_S for the hung one.
    expect(elapsed).toBeLessThan((fault.timeoutS ?? 5) * 1000 + 8000);
    const written = filesHolding(t.dir, SECRET).length - before;
    leaks += written;
    expect(written).toBe(0);
    let creds: Record<string, unknown> = {};
    try {
      creds = JSON.parse(readFileSync(t.credentialsFile, 'utf8')).profiles;
    } catch {
      // no credentials file at all
    }
    expect(creds).not.toHaveProperty('new');
    // Nor does the config claim a credential is stored for the profile.
    let profiles: Record<string, Record<string, unknown>> = {};
    try {
      profiles = JSON.parse(readFileSync(t.configFile, 'utf8')).profiles ?? {};
    } catch {
      // no config file
    }
    expect(profiles.new?.['credential-store']).toBeUndefined();
  });

  it('using a stored credential: exit 4 within the timeout, and no request sent', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...(await fault.make(t)), BO_KEYCHAIN_TIMEOUT: String(fault.timeoutS ?? DEFAULT_TIMEOUT_S) };
    const sent = recorder.requests.length;
    injected++;
    const r = await runBin(['-p', 'stored', '--base-url', recorder.url, 'lists', 'list'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toBe('');
    expectKeychainMessage(r.stderr, fault.message, true);
    expect(recorder.requests.length).toBe(sent);
  });

  it('logout: exit 4, says the credential is still stored and how to retry, and the profile still records it', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...(await fault.make(t)), BO_KEYCHAIN_TIMEOUT: String(fault.timeoutS ?? DEFAULT_TIMEOUT_S) };
    injected++;
    const r = await runBin(['-p', 'stored', 'logout'], { env });
    expect(r.code, r.stderr).toBe(4);
    expect(r.stdout).toBe('');
    const [first, hint, ...rest] = r.stderr.trimEnd().split('\n');
    expect(first).toMatch(/^error: cannot remove the credential of profile "stored": the OS keychain is not available \(/);
    expect(first).toMatch(fault.message);
    // Not the advice for storing (--insecure-storage): the credential is still in the keychain.
    expect(hint).toBe('hint: it is still stored there; run bo -p stored logout again once the keychain can be reached');
    expect(rest).toEqual([]);
    expect(r.stderr).not.toContain('Signed out');
    expect(JSON.parse(readFileSync(t.configFile, 'utf8')).profiles.stored['credential-store']).toBe('keychain');
  });

  it('with --insecure-storage: stored in the 0600 file, exit 0', async () => {
    const t = tempConfig();
    const env = { ...t.env, ...(await fault.make(t)), BO_KEYCHAIN_TIMEOUT: String(fault.timeoutS ?? DEFAULT_TIMEOUT_S) };
    injected++;
    const r = await runBin(['-p', 'new', '--base-url', 'http://127.0.0.1:1', 'auth', 'set-key', '--key', 'new-key', '--secret-stdin', '--insecure-storage'], {
      env,
      stdin: `${SECRET}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(SECRET);
    expect(JSON.parse(readFileSync(t.credentialsFile, 'utf8')).profiles.new).toMatchObject({ kind: 'apiKey', key: 'new-key', secret: SECRET });
    expect(statSync(t.credentialsFile).mode & 0o777).toBe(0o600);
  });
});
