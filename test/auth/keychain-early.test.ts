// The keychain read bin/bo.js starts before it loads the bundle (issue #12: the helper
// process's 40-70 ms overlap the start-up). A stand-in keyring module, run by the real
// helper process, logs each read, so a test sees how many reads were made and for
// which item; the real Secret Service is used where a test says so (.ci/keyring.sh).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEarlyKeychainRead } from '../../src/auth/stores/keychain-early.js';
import { scanArgv } from '../../src/argv-scan.js';
import { createKeychainStore, EARLY_READ } from '../../src/auth/stores/keychain.js';
import { runBin } from '../helpers/run-bin.js';
import { keyringEnv, startFakeBus, type FakeBus } from '../helpers/keyring.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';

let dir: string;
let fakeKeyring: string;
let log: string;
const stops: Array<() => void> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bo-kc-early-'));
  fakeKeyring = join(dir, 'fake-keyring.cjs');
  log = join(dir, 'reads.log');
  writeFileSync(
    fakeKeyring,
    `const fs = require('node:fs');
exports.Entry = class {
  constructor(service, account) { this.item = service + '/' + account; }
  getPassword() {
    fs.appendFileSync(${JSON.stringify(log)}, this.item + '\\n');
    return JSON.stringify({ kind: 'token', token: 'tok-from-' + this.item });
  }
};
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  delete (globalThis as Record<symbol, unknown>)[EARLY_READ];
  rmSync(log, { force: true });
});

const reads = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

/** A config folder whose profiles record where their credential is. */
function configWith(profiles: Record<string, Record<string, string>>, current?: string) {
  const config = mkdtempSync(join(dir, 'config-'));
  writeFileSync(join(config, 'config.json'), JSON.stringify({ ...(current ? { currentProfile: current } : {}), profiles }));
  return { BO_CONFIG_DIR: config, PATH: process.env.PATH ?? '' } as Record<string, string>;
}

function start(argv: string[], env: Record<string, string>) {
  const stop = startEarlyKeychainRead(argv, env, () => fakeKeyring);
  if (stop) stops.push(stop);
  return stop;
}

describe('the early keychain read', () => {
  it('is the answer of the first read of that item: one helper run, not two', async () => {
    const env = configWith({ default: { 'credential-store': 'keychain' } });
    expect(start(['accounts', 'list', '--json'], env)).toBeTypeOf('function');
    const store = createKeychainStore(env);
    // The store on its own would ask the real keyring module, which has no such item.
    expect(await store.get('default')).toEqual({ kind: 'token', token: 'tok-from-bo/default' });
    expect(reads()).toEqual(['bo/default']);
  });

  it('reads the profile the run will use: -p, --profile=, BO_PROFILE, then the current one', async () => {
    const profiles = { prod: { 'credential-store': 'keychain' }, stage: { 'credential-store': 'keychain' } };
    for (const [argv, extra, current, want] of [
      [['-p', 'prod', 'accounts', 'list'], {}, undefined, 'prod'],
      [['accounts', 'list', '--profile=stage'], {}, 'prod', 'stage'],
      [['--timeout', '5', 'addons', 'expire', 'sa_1'], { BO_PROFILE: 'stage' }, undefined, 'stage'],
      [['api', '/crm/accounts'], {}, 'prod', 'prod'],
    ] as const) {
      delete (globalThis as Record<symbol, unknown>)[EARLY_READ];
      const env = { ...configWith(profiles, current), ...extra };
      start([...argv], env);
      expect(await createKeychainStore(env).get(want)).toEqual({ kind: 'token', token: `tok-from-bo/${want}` });
    }
    expect(reads()).toEqual(['bo/prod', 'bo/stage', 'bo/stage', 'bo/prod']);
  });

  it('is not started when the run would not read the keychain', () => {
    const keychain = configWith({ default: { 'credential-store': 'keychain' } });
    const cases: Array<[string[], Record<string, string>]> = [
      [['accounts', 'list'], { ...keychain, BO_TOKEN: 't' }],
      [['accounts', 'list'], { ...keychain, BO_API_KEY: 'k', BO_API_SECRET: 's' }],
      [['accounts', 'list'], { ...keychain, BO_SANDBOX: '1' }],
      [['--sandbox', 'accounts', 'list'], keychain],
      [['accounts', 'list', '--help'], keychain],
      [['config', 'list'], keychain],
      [['login'], keychain],
      [[], keychain],
      [['accounts', 'list'], configWith({ default: { 'credential-store': 'file' } })],
      [['accounts', 'list'], configWith({ default: {} })],
      [['-p', 'other', 'accounts', 'list'], keychain],
      [['accounts', 'list'], { ...keychain, BO_KEYCHAIN_TIMEOUT: 'soon' }],
    ];
    for (const [argv, env] of cases) expect(start(argv, env), argv.join(' ')).toBeUndefined();
    const broken = mkdtempSync(join(dir, 'config-'));
    writeFileSync(join(broken, 'config.json'), '{ not json');
    expect(start(['accounts', 'list'], { BO_CONFIG_DIR: broken })).toBeUndefined();
    expect((globalThis as Record<symbol, unknown>)[EARLY_READ]).toBeUndefined();
  });

  it('is left alone by a read of another item, which asks the keychain itself', async () => {
    const env = { ...configWith({ default: { 'credential-store': 'keychain' } }), ...keyringEnv() };
    start(['accounts', 'list'], env);
    // The real Secret Service of .ci/keyring.sh: it has no item for this profile.
    expect(await createKeychainStore(env).get(`kc-early-other-${process.pid}`)).toBeNull();
    expect((globalThis as Record<symbol, unknown>)[EARLY_READ]).toBeUndefined();
  });

  it('finds the command word past global options and their values', () => {
    expect(scanArgv(['-p', 'accounts', '--base-url', 'http://x', 'addons', 'expire'])).toEqual({ command: 'addons', verb: 'expire', profile: 'accounts', help: false });
    expect(scanArgv(['-pprod', '--json', 'accounts', '-h'])).toEqual({ command: 'accounts', profile: 'prod', help: true });
    expect(scanArgv(['--', '-p', 'x'])).toEqual({ command: undefined, profile: undefined, help: false });
  });
});

describe('the early read in the built bo', () => {
  let bus: FakeBus;
  beforeAll(async () => {
    bus = await startFakeBus();
  });
  afterAll(() => bus.close());

  it('sends the keychain credential of the profile', async () => {
    const server = await startFaultServer();
    try {
      server.script(reply.json(200, { items: [{ Uid: 'acc_1', Name: 'Acme' }], metadata: { total: 1 } }));
      const home = mkdtempSync(join(dir, 'home-'));
      const env = { HOME: home, BO_CONFIG_DIR: join(home, 'bo'), ...keyringEnv() };
      const setKey = await runBin(['--base-url', server.url, 'auth', 'set-key', '--key', 'kc_early_key', '--secret-stdin'], { env, stdin: 'kc_early_secret\n' });
      expect(setKey.code).toBe(0);
      expect((await runBin(['config', 'set', 'base-url', server.url], { env })).code).toBe(0);
      const r = await runBin(['--jsonl', 'accounts', 'list'], { env });
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(r.stdout)).toEqual({ Uid: 'acc_1', Name: 'Acme' });
      expect(server.requests.at(-1)!.headers.authorization).toBe('bo kc_early_key:kc_early_secret');
      await runBin(['logout'], { env });
    } finally {
      await server.close();
    }
  });

  it('does not keep bo running when it is not taken and the bus never answers', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    mkdirSync(join(home, 'bo'));
    writeFileSync(join(home, 'bo', 'config.json'), JSON.stringify({ profiles: { default: { 'base-url': 'http://127.0.0.1:9', 'credential-store': 'keychain' } } }));
    const env = { HOME: home, BO_CONFIG_DIR: join(home, 'bo'), DBUS_SESSION_BUS_ADDRESS: bus.address, BO_KEYCHAIN_TIMEOUT: '20' };
    const started = Date.now();
    const r = await runBin(['accounts', 'list', '--limit', 'many'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --limit must be/);
    // Far under the 20 s the unused keychain read could take.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
