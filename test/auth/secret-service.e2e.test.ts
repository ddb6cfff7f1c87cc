// The in-process read of a keychain item over D-Bus (src/auth/stores/secret-service.ts),
// against a real gnome-keyring (run under .ci/keyring.sh): it answers what the keyring
// library answers for the same item, without the library's helper process, and leaves
// every case it does not handle to that helper.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychainStore, KeychainUnavailableError } from '../../src/auth/stores/keychain.js';
import { startKeychainChild } from '../../src/auth/stores/keychain-child.js';
import { startKeychainGet } from '../../src/auth/stores/keychain-read.js';
import { readSecretService, sessionBusPath } from '../../src/auth/stores/secret-service.js';
import { unixBusPath } from '../../src/auth/stores/dbus.js';
import { AuthError } from '../../src/errors.js';
import { keyringEnv, secretToolStore, startFakeBus, uniqueProfile, type FakeBus } from '../helpers/keyring.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

const sessionEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', ...keyringEnv() });

/** What the keyring library itself (in its helper) answers for the item. */
async function libraryRead(profile: string): Promise<unknown> {
  const answer = await startKeychainChild(sessionEnv(), { op: 'get', service: 'bo', account: profile }, 10_000).result;
  if (!('ok' in answer) || !answer.ok) throw new Error(`library read failed: ${JSON.stringify(answer)}`);
  return answer.value;
}

function inProcessRead(profile: string) {
  const bus = sessionBusPath(sessionEnv());
  if (!bus) throw new Error('the session bus is not a Unix socket');
  return readSecretService(bus, 'bo', profile).answer;
}

describe('session bus addresses', () => {
  it('takes the first Unix path or abstract socket; other transports are left to the library', () => {
    expect(unixBusPath('unix:path=/run/user/1000/bus')).toBe('/run/user/1000/bus');
    expect(unixBusPath('unix:path=/tmp/dbus-x,guid=99af')).toBe('/tmp/dbus-x');
    expect(unixBusPath('unix:abstract=/tmp/dbus-y,guid=1')).toBe('\0/tmp/dbus-y');
    expect(unixBusPath('tcp:host=localhost,port=1;unix:path=/tmp/a%20b')).toBe('/tmp/a b');
    expect(unixBusPath('tcp:host=localhost,port=1')).toBeUndefined();
    expect(unixBusPath('unix:tmpdir=/tmp')).toBeUndefined();
    expect(unixBusPath(undefined)).toBeUndefined();
  });
});

describe('reading an item in-process (Secret Service)', () => {
  it('answers what the keyring library answers, for every kind of text', async () => {
    const store = createKeychainStore(sessionEnv());
    const values = [
      { kind: 'apiKey', key: 'k1', secret: 's1' },
      { kind: 'token', token: 'é漢字🙂\u202e', username: 'ü@example.com' },
      { kind: 'apiKey', key: 'k'.repeat(100_000), secret: 'x' }, // a 100 KB item
    ] as const;
    for (const value of values) {
      const profile = uniqueProfile('ss-read');
      await store.set(profile, value);
      const library = await libraryRead(profile);
      expect(library).toBe(JSON.stringify(value));
      expect(await inProcessRead(profile)).toEqual({ value: library });
      await store.delete(profile);
    }
  });

  it('answers "no item" as the library does (null), for a profile never stored', async () => {
    const profile = uniqueProfile('ss-none');
    expect(await libraryRead(profile)).toBeNull();
    expect(await inProcessRead(profile)).toEqual({ value: null });
  });

  it('leaves two matching items to the library, whose "more than one" error the user then sees', async () => {
    const profile = uniqueProfile('ss-two');
    secretToolStore(profile, '{"kind":"token","token":"a"}');
    // A second item with one more attribute matches the same search.
    execFileSync('secret-tool', ['store', '--label', 'second', 'service', 'bo', 'username', profile, 'extra', '1'], { input: '{"kind":"token","token":"b"}' });
    expect(await inProcessRead(profile)).toBe('defer');
    const err = await createKeychainStore(sessionEnv()).get(profile).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toBe(`the keychain holds 2 items for service "bo" and profile "${profile}"; bo cannot tell which one is its own`);
    expect((err as Error).message).not.toContain('/org/freedesktop');
    expect((err as AuthError).hint).toBe(`remove them with a keyring manager (Seahorse), or: secret-tool clear service bo username ${profile}; then sign in again`);
    execFileSync('secret-tool', ['clear', 'service', 'bo', 'username', profile]);
  });

  it('leaves a bus with no Secret Service on it to the library, whose message names it', async () => {
    // A bus of its own that activates no services: nobody owns org.freedesktop.secrets.
    // dbus-daemon needs the DOCTYPE, and the receive rules: without them it drops every answer.
    const dir = mkdtempSync(join(tmpdir(), 'bo-empty-bus-'));
    const config = join(dir, 'bus.conf');
    writeFileSync(
      config,
      '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">' +
        `<busconfig><type>session</type><listen>unix:path=${join(dir, 'bus')}</listen><auth>EXTERNAL</auth>` +
        '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>',
    );
    const daemon = spawn('dbus-daemon', ['--nofork', '--print-address=1', `--config-file=${config}`], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        daemon.stdout.once('data', (d: Buffer) => resolve(String(d).trim()));
        daemon.once('exit', (code) => reject(new Error(`dbus-daemon exited ${code}`)));
      });
      const env = { PATH: process.env.PATH ?? '', DBUS_SESSION_BUS_ADDRESS: address };
      expect(await readSecretService(sessionBusPath(env)!, 'bo', 'nobody').answer).toBe('defer');
      const err = await createKeychainStore(env).get('nobody').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KeychainUnavailableError);
      expect((err as Error).message).toBe('the OS keychain is not available (Secret Service: no Secret Service is running on the session bus (gnome-keyring, KeePassXC …))');
    } finally {
      daemon.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a bus that is not what it should be', () => {
  async function answering(respond: (socket: import('node:net').Socket) => void) {
    const bus = await startFakeBus(respond);
    try {
      return await readSecretService(bus.path, 'bo', 'x').answer;
    } finally {
      bus.close();
    }
  }

  it('refusing the authentication: left to the library', async () => {
    expect(await answering((socket) => socket.end('REJECTED EXTERNAL\r\n'))).toBe('defer');
  });

  it('answering bytes that are not D-Bus: left to the library', async () => {
    expect(await answering((socket) => socket.once('data', () => socket.write('OK 0123\r\nHTTP/1.1 400 Bad Request\r\n\r\n')))).toBe('defer');
  });

  it('closing the connection midway: left to the library', async () => {
    expect(await answering((socket) => socket.once('data', () => socket.end('OK 0123\r\n')))).toBe('defer');
  });
});

describe('a bus that accepts and never answers', () => {
  let bus: FakeBus;
  beforeAll(async () => {
    bus = await startFakeBus();
  });
  afterAll(() => bus.close());

  it('a read gives up after BO_KEYCHAIN_TIMEOUT seconds, naming the limit', async () => {
    const store = createKeychainStore({ PATH: process.env.PATH ?? '', DBUS_SESSION_BUS_ADDRESS: bus.address, BO_KEYCHAIN_TIMEOUT: '1' });
    const started = Date.now();
    const err = await store.get(uniqueProfile('ss-silent')).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    // Under the 10 s default: the limit set is the one used (the message says so too).
    expect(elapsed).toBeLessThan(9_000);
    expect(err).toBeInstanceOf(KeychainUnavailableError);
    expect((err as Error).message).toContain('no answer within 1 s; BO_KEYCHAIN_TIMEOUT sets the limit');
  });

  it('a read ends when stopped: its closed connection starts no helper', async () => {
    let helperAsked = false;
    const env = { DBUS_SESSION_BUS_ADDRESS: bus.address };
    const helper = () => {
      helperAsked = true;
      return startKeychainChild(env, { op: 'get', service: 'bo', account: 'x' }, 60_000);
    };
    const call = startKeychainGet(env, { service: 'bo', account: 'x' }, 60_000, helper);
    call.stop(); // closes the connection: the read ends as "leave it to the library"
    await new Promise((r) => setTimeout(r, 200));
    expect(helperAsked).toBe(false);
  });
});

describe('a command with its credential in the keychain', () => {
  it('reads it without starting any process, and sends it', async () => {
    const server = await startFaultServer();
    try {
      server.script(reply.json(200, { items: [{ Uid: 'acc_1', Name: 'Acme' }], metadata: { total: 1 } }));
      const home = mkdtempSync(join(tmpdir(), 'bo-ss-home-'));
      const env = { HOME: home, BO_CONFIG_DIR: join(home, 'bo'), ...sessionEnv() };
      const set = await runBin(['--base-url', server.url, 'auth', 'set-key', '--key', 'ss_key', '--secret-stdin'], { env, stdin: 'ss_secret\n', trace: true });
      expect(set.code).toBe(0);
      expect(set.children.length).toBeGreaterThan(0); // a write still runs the library's helper
      expect((await runBin(['config', 'set', 'base-url', server.url], { env, trace: true })).code).toBe(0);
      const r = await runBin(['--jsonl', 'accounts', 'list'], { env, trace: true });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(r.stdout)).toEqual({ Uid: 'acc_1', Name: 'Acme' });
      expect(server.requests.at(-1)!.headers.authorization).toBe('bo ss_key:ss_secret');
      expect(r.children).toEqual([]);
      await runBin(['logout'], { env, trace: true });
      rmSync(home, { recursive: true, force: true });
    } finally {
      await server.close();
    }
  });
});
