// A setting of the wrong JSON type in config.json, written by hand: `"protected": "true"`
// (a string) showed as true in `config get` while batches went out unconfirmed and
// `bo mcp --writes direct` was allowed. The built binary against a sandbox over loopback
// HTTP: such a setting is the settings error with its repair hint (exit 2, as any bad
// setting), nothing is sent, and once repaired the profile is protected.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A fresh config folder whose default profile holds `settings`, as a user wrote them. */
function configWith(settings: Record<string, unknown>) {
  const env = testEnv(sb);
  mkdirSync(env.BO_CONFIG_DIR!, { recursive: true });
  const file = join(env.BO_CONFIG_DIR!, 'config.json');
  writeFileSync(file, JSON.stringify({ profiles: { default: settings } }, null, 2));
  return { env, file };
}

/** The sandbox's requests while `run` ran, other than its own admin ones. */
async function sentDuring(run: () => Promise<unknown>): Promise<string[]> {
  const before = (await sb.activity()).length;
  await run();
  return (await sb.activity()).slice(before).map((a) => `${a.method} ${a.path}`);
}

const settingsError = (file: string, key: string, rule: string, got: string) =>
  `error: the config file ${file} has an invalid setting: profile "default" key "${key}" ${rule}, got ${got}\n` +
  `hint: fix it with: bo -p default config unset ${key}, or bo -p default config set ${key} <value>\n`;

describe('settings of the wrong type (built binary)', () => {
  it('"protected": "true" is the settings error with its hint: no batch goes out, config get/list and mcp --writes direct refuse too', async () => {
    const { env, file } = configWith({ protected: 'true' });
    const expected = settingsError(file, 'protected', 'must be true or false, without quotes', '"true"');
    let batch!: Awaited<ReturnType<typeof runBin>>;
    const sent = await sentDuring(async () => (batch = await runBin(['lists', 'create', '-'], { env, stdin: 'Alpha\nBeta\n' })));
    expect(batch).toMatchObject({ code: 2, stdout: '', stderr: expected });
    expect(sent).toEqual([]);
    for (const argv of [['config', 'get', 'protected'], ['config', 'list'], ['mcp', '--writes', 'direct', '--tools', 'lists']]) {
      const r = await runBin(argv, { env, stdin: '' });
      expect({ argv, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ argv, code: 2, stdout: '', stderr: expected });
    }
  });

  it('repaired with the hint, the profile is protected: config get says true and a batch needs --yes, nothing sent', async () => {
    const { env } = configWith({ protected: 'true' });
    expect((await runBin(['config', 'set', 'protected', 'true'], { env })).code).toBe(0);
    expect(await runBin(['config', 'get', 'protected'], { env })).toMatchObject({ code: 0, stdout: 'true\n' });
    let batch!: Awaited<ReturnType<typeof runBin>>;
    const sent = await sentDuring(async () => (batch = await runBin(['lists', 'create', '-'], { env, stdin: 'Gamma\n' })));
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain('needs --yes: profile "default" is protected');
    expect(sent).toEqual([]);
    const mcp = await runBin(['mcp', '--writes', 'direct', '--tools', 'lists'], { env, stdin: '' });
    expect(mcp.code).toBe(2);
    expect(mcp.stderr).toContain('--writes direct is refused on profile "default": it is protected');
  });

  it('config list prints the value bo acts on: BO_MAX_RESPONSE_MB and BO_JOURNAL over the file, the file over the defaults', async () => {
    const { env } = configWith({ 'max-response-mb': 16, journal: 'on', protected: true });
    const inEffect = async (extra: Record<string, string>) => {
      const r = await runBin(['config', 'list', '--json'], { env: { ...env, ...extra } });
      expect(r.code, r.stderr).toBe(0);
      const settings = JSON.parse(r.stdout).settings as Array<{ name: string; value: unknown; source: string }>;
      return Object.fromEntries(settings.filter((s) => ['max-response-mb', 'journal', 'protected'].includes(s.name)).map((s) => [s.name, [s.value, s.source]]));
    };
    expect(await inEffect({})).toEqual({ 'max-response-mb': [16, 'config'], journal: ['on', 'config'], protected: [true, 'config'] });
    expect(await inEffect({ BO_MAX_RESPONSE_MB: '8', BO_JOURNAL: 'off' })).toEqual({
      'max-response-mb': [8, 'env'],
      journal: ['off', 'env'],
      protected: [true, 'config'],
    });
  });

  it.each([
    ['max-response-mb', '16', 'must be a number, without quotes', '"16"'],
    ['max-response-mb', 0, 'must be a whole number of megabytes from 1 to 4096', '"0"'],
    ['protected', 1, 'must be true or false, without quotes', '1'],
    ['journal', 'OFF', 'must be "on" or "off"', '"OFF"'],
    ['timeout', '30', 'must be a number, without quotes', '"30"'],
  ])('%s: %j is the settings error, nothing sent', async (key, value, rule, got) => {
    const { env, file } = configWith({ [key]: value });
    let list!: Awaited<ReturnType<typeof runBin>>;
    const sent = await sentDuring(async () => (list = await runBin(['accounts', 'list'], { env })));
    expect(list).toMatchObject({ code: 2, stdout: '', stderr: settingsError(file, key, rule, got) });
    expect(sent).toEqual([]);
    const get = await runBin(['config', 'get', key], { env });
    expect(get).toMatchObject({ code: 2, stderr: settingsError(file, key, rule, got) });
  });
});
