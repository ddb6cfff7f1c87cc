import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBo } from '../../helpers/run-bo.js';
import { tempConfig } from '../../helpers/config-dir.js';
import { createMemoryStore } from '../../../src/auth/stores/memory.js';
import type { Prompter } from '../../../src/auth/prompter-types.js';

// A tenant on a port where nothing listens: set-key's check of its certificate finds
// it unreachable at once (no name lookup), warns and stores the key all the same.
const TENANT = 'https://127.0.0.1:1';
const UNREACHED = (url: string) => `warning: could not connect to ${url}: connection refused; the key is stored without checking the tenant's certificate (bo auth status --verify checks it later)\n`;

/** Answers prompts from a script and records what was asked. */
function scripted(answers: Record<string, string>) {
  const asked: string[] = [];
  const answer = async (message: string) => {
    asked.push(message);
    if (!(message in answers)) throw new Error(`unexpected prompt: ${message}`);
    return answers[message]!;
  };
  const prompter: Prompter = {
    input: answer,
    password: answer,
    select: async () => {
      throw new Error('unexpected select');
    },
    confirm: async () => {
      throw new Error('unexpected confirm');
    },
  };
  return { prompter, asked };
}

describe('bo auth set-key', () => {
  it('--secret-stdin: stores the pair from the first line of stdin, secret nowhere in the output', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    const r = await runBo(['auth', 'set-key', '--key', 'ak_1', '--secret-stdin'], {
      env: { ...t.env, BO_BASE_URL: TENANT },
      credentials: store,
      stdin: 'sk_first_line\nignored second line\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      UNREACHED(TENANT) +
        'Stored API key ak_1 for profile "default" in memory (tests).\n' +
        'Saved https://127.0.0.1:1 as the base URL of profile "default"; the key is sent there only.\n',
    );
    expect(store.items.get('default')).toEqual({ kind: 'apiKey', key: 'ak_1', secret: 'sk_first_line', origin: TENANT });
  });

  it('on a terminal: asks for the key and, hidden, for the secret', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    const { prompter, asked } = scripted({ 'API key': 'ak_2', 'API secret': 'sk_typed' });
    const r = await runBo(['-p', 'acme', 'auth', 'set-key'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store, prompter, stdinIsTTY: true });
    expect(r.code).toBe(0);
    expect(asked).toEqual(['API key', 'API secret']);
    expect(store.items.get('acme')).toEqual({ kind: 'apiKey', key: 'ak_2', secret: 'sk_typed', origin: TENANT });
  });

  it('non-interactive without --secret-stdin: exit 4 naming it, nothing stored', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    const r = await runBo(['auth', 'set-key', '--key', 'ak_1'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: no API secret: pass --secret-stdin');
    expect(store.items.size).toBe(0);
    const noInput = await runBo(['--no-input', 'auth', 'set-key', '--key', 'ak_1'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store, stdinIsTTY: true });
    expect(noInput.code).toBe(4);
  });

  it('non-interactive without --key: exit 4 naming --key', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'set-key', '--secret-stdin'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: createMemoryStore(), stdin: 's\n' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('error: no API key given: pass --key <key>');
  });

  it('empty stdin with --secret-stdin: exit 4; stdin not UTF-8, a key with a colon: exit 2', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    const empty = await runBo(['auth', 'set-key', '--key', 'k', '--secret-stdin'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store, stdin: '' });
    expect(empty.code).toBe(4);
    expect(empty.stderr).toContain('--secret-stdin: stdin held no secret');
    const latin1 = await runBo(['auth', 'set-key', '--key', 'k', '--secret-stdin'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store, stdin: Buffer.from('sk_caf\xe9\n', 'latin1') });
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toMatch(/^error: --secret-stdin: stdin is not valid UTF-8\n/);
    expect(latin1.stderr).not.toContain('sk_caf');
    const colon = await runBo(['auth', 'set-key', '--key', 'a:b', '--secret-stdin'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: store, stdin: 's\n' });
    expect(colon.code).toBe(2);
    expect(colon.stderr).toContain('--key must be one word with no spaces or colons');
    expect(store.items.size).toBe(0);
  });

  it('has no flag that takes the secret', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'set-key', '--key', 'k', '--secret', 's'], { env: { ...t.env, BO_BASE_URL: TENANT }, credentials: createMemoryStore() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--secret'");
  });

  it('--insecure-storage: a 0600 file, the profile switched to it, the config free of secrets', async () => {
    const t = tempConfig();
    const keychain = createMemoryStore();
    const r = await runBo(['-p', 'ci', 'auth', 'set-key', '--key', 'ak_3', '--secret-stdin', '--insecure-storage'], {
      env: { ...t.env, BO_BASE_URL: TENANT },
      credentials: keychain,
      stdin: 'sk_file\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Stored API key ak_3 for profile "ci" in ${t.credentialsFile}.`);
    expect(r.stderr).toContain('warning: the secret is stored unencrypted');
    expect(keychain.items.size).toBe(0);
    expect(t.mode(t.credentialsFile)).toBe(0o600);
    expect(t.readJson(t.credentialsFile)).toEqual({ profiles: { ci: { kind: 'apiKey', key: 'ak_3', secret: 'sk_file', origin: TENANT } } });
    expect(t.readJson(t.configFile)).toEqual({ profiles: { ci: { 'credential-store': 'file', 'base-url': TENANT } } });
    expect(readFileSync(t.configFile, 'utf8')).not.toContain('sk_file');
    // Later runs of the profile find it there, with no flag and no keychain.
    const status = await runBo(['-p', 'ci', 'auth', 'status', '--json'], { env: t.env });
    expect(JSON.parse(status.stdout)).toMatchObject({ source: 'file', key: 'ak_3' });
  });

  it('warns when environment credentials will take precedence', async () => {
    const t = tempConfig();
    const r = await runBo(['auth', 'set-key', '--key', 'k', '--secret-stdin'], {
      env: { ...t.env, BO_BASE_URL: TENANT, BO_TOKEN: 'x' },
      credentials: createMemoryStore(),
      stdin: 's\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: BO_TOKEN in the environment takes precedence over this key.');
  });

  it('with no base URL in effect: exit 2 naming --base-url, before any prompt, nothing stored', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    const { prompter, asked } = scripted({});
    const r = await runBo(['auth', 'set-key', '--key', 'k', '--secret-stdin'], { env: t.env, credentials: store, prompter, stdin: 's\n' });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('error: no base URL for profile "default": pass --base-url <url> with the tenant this key belongs to\n');
    expect(asked).toEqual([]);
    expect(store.items.size).toBe(0);
    expect(() => t.readJson(t.configFile)).toThrow(/ENOENT/);
  });

  it('--base-url: the key records that origin and the profile saves the URL, replacing an older one', async () => {
    const t = tempConfig();
    const store = createMemoryStore();
    expect((await runBo(['-p', 'a', 'config', 'set', 'base-url', 'https://old.example.com'], { env: t.env })).code).toBe(0);
    const r = await runBo(['-p', 'a', 'auth', 'set-key', '--base-url', 'https://LocalHost:1/', '--key', 'k', '--secret-stdin'], {
      env: t.env,
      credentials: store,
      stdin: 's\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Saved https://localhost:1 as the base URL of profile "a"; the key is sent there only.\n');
    expect(store.items.get('a')).toEqual({ kind: 'apiKey', key: 'k', secret: 's', origin: 'https://localhost:1' });
    expect(t.readJson(t.configFile).profiles.a).toEqual({ 'base-url': 'https://localhost:1', 'credential-store': 'keychain' });
    // The same base URL again: nothing new to say.
    const again = await runBo(['-p', 'a', 'auth', 'set-key', '--key', 'k2', '--secret-stdin'], { env: t.env, credentials: store, stdin: 's2\n' });
    expect(again.stderr).toBe(`${UNREACHED('https://localhost:1')}Stored API key k2 for profile "a" in memory (tests).\n`);
    expect(store.items.get('a')).toMatchObject({ key: 'k2', origin: 'https://localhost:1' });
  });
});
