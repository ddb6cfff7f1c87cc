// `bo __complete profiles|settings`, which the completion scripts run at TAB time: what
// it prints, that it stays out of help, and that the binary answers it from the small
// dist/complete.cjs alone, with no keychain, no network module and no base URL.

import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '../../src/config/settings.js';
import { tempConfig } from '../helpers/config-dir.js';
import { binPath, runBin } from '../helpers/run-bin.js';
import { runBo } from '../helpers/run-bo.js';

function configWith(content: unknown) {
  const cfg = tempConfig();
  mkdirSync(cfg.dir, { recursive: true });
  writeFileSync(cfg.configFile, typeof content === 'string' ? content : JSON.stringify(content));
  return cfg;
}

const sample = { currentProfile: 'ops', profiles: { acme: { 'base-url': 'https://acme.example.com' }, 'bad name': {} } };

describe('bo __complete', () => {
  it('lists the profiles of the config file, "default" and the current one, sorted', async () => {
    const cfg = configWith(sample);
    const r = await runBo(['__complete', 'profiles'], { env: cfg.env });
    expect(r).toEqual({ code: 0, stdout: 'acme\ndefault\nops\n', stderr: '' });
  });

  it('lists "default" when there is no config file', async () => {
    const r = await runBo(['__complete', 'profiles'], { env: tempConfig().env });
    expect(r).toEqual({ code: 0, stdout: 'default\n', stderr: '' });
  });

  it('lists the setting keys bo config takes', async () => {
    const r = await runBo(['__complete', 'settings'], { env: tempConfig().env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([...SETTING_KEYS].sort().map((k) => `${k}\n`).join(''));
    for (const key of r.stdout.trim().split('\n')) {
      expect((await runBo(['config', 'get', key], { env: tempConfig().env })).code).toBe(0);
    }
  });

  it('refuses an unknown source with exit 2, one error line and nothing on stdout', async () => {
    const r = await runBo(['__complete', 'accounts'], { env: tempConfig().env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: bo __complete takes one of profiles, settings, got "accounts"\n');
  });

  it('is left out of help and of the suggestions for a typo', async () => {
    expect((await runBo(['--help'])).stdout).not.toContain('__complete');
    const typo = await runBo(['__complet']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).not.toContain('__complete');
  });
});

describe('bo __complete in the built binary', () => {
  it('answers as the in-process command does, also after global flags', async () => {
    const cfg = configWith(sample);
    const fast = await runBin(['__complete', 'profiles'], { env: cfg.env });
    const full = await runBin(['-p', 'acme', '__complete', 'profiles'], { env: cfg.env });
    expect(fast).toMatchObject({ code: 0, stdout: 'acme\ndefault\nops\n', stderr: '' });
    expect(full).toMatchObject({ code: 0, stdout: 'acme\ndefault\nops\n', stderr: '' });
    const bad = await runBin(['__complete', 'nope'], { env: cfg.env });
    expect(bad).toMatchObject({ code: 2, stdout: '', stderr: 'error: bo __complete takes one of profiles, settings, got "nope"\n' });
  });

  it('says what is wrong with a broken config file on stderr, and lists nothing', async () => {
    const cfg = configWith('{"profiles": ');
    const r = await runBin(['__complete', 'profiles'], { env: cfg.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the config file .*config\.json is not valid JSON/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('needs only bin/ and dist/complete.cjs: no bundle, no keychain, no network module', () => {
    // A copy holding nothing else: loading the main bundle or any dependency would fail.
    const root = mkdtempSync(join(tmpdir(), 'bo-complete-'));
    try {
      const src = dirname(dirname(binPath));
      const files = ['package.json', 'dist/complete.cjs', ...readdirSync(join(src, 'bin')).map((f) => `bin/${f}`)];
      for (const file of files) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        copyFileSync(join(src, file), join(root, file));
      }
      const cfg = configWith(sample);
      // Records the Node built-ins the process loaded, when it exits.
      const loaded = join(root, 'loaded.txt');
      writeFileSync(
        join(root, 'record.mjs'),
        "import { writeFileSync } from 'node:fs';\n" +
          `process.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`,
      );
      // Output to files: a pipe would load the net module for the pipe itself.
      const outFile = join(root, 'out.txt');
      const errFile = join(root, 'err.txt');
      const out = openSync(outFile, 'w');
      const err = openSync(errFile, 'w');
      const r = spawnSync(process.execPath, ['--import', join(root, 'record.mjs'), join(root, 'bin/bo.js'), '__complete', 'profiles'], {
        env: { PATH: process.env.PATH, HOME: root, ...cfg.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
        stdio: ['ignore', out, err],
        timeout: 20_000,
      });
      closeSync(out);
      closeSync(err);
      expect(readFileSync(errFile, 'utf8')).toBe('');
      expect(r.status).toBe(0);
      expect(readFileSync(outFile, 'utf8')).toBe('acme\ndefault\nops\n');
      const modules = readFileSync(loaded, 'utf8').split('\n');
      expect(modules).toContain('NativeModule fs');
      for (const name of ['net', 'http', 'https', 'tls', 'dns', 'child_process']) {
        expect(modules, name).not.toContain(`NativeModule ${name}`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
