// The README's five-minute tour, run as written: every command of its ```sh block, in
// order, through bash with the built `bo` on PATH, on a fresh config and data folder
// (the embedded sandbox) and a Secret Service of its own. A command that does not exit 0
// fails the test, naming the command and what it printed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { boOnPath, privateKeyring, runInOrder, tourCommands } from './tour.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const TOUR = 'A five-minute tour';
const readme = () => readFileSync(join(repo, 'README.md'), 'utf8');

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-tour-'));
  made.push(dir);
  return dir;
}

/** A user's shell: bo on PATH, private folders, nothing from the developer's own. */
function userEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  // A user's shell has a home folder: the journal of the tour's batch goes under it.
  mkdirSync(join(root, 'home'), { recursive: true });
  return {
    PATH: `${boOnPath(join(root, 'bin'), repo)}:${process.env.PATH}`,
    HOME: join(root, 'home'),
    BO_CONFIG_DIR: join(root, 'config'),
    BO_DATA_DIR: join(root, 'data'),
    ...extra,
  };
}

describe('the README tour', () => {
  it('runs every command of the tour, in order, and each exits 0', async () => {
    const commands = tourCommands(readme(), TOUR);
    const root = tempDir();
    const keyring = await privateKeyring(repo);
    try {
      const { runs, failed } = await runInOrder(commands, { cwd: root, env: userEnv(root, keyring.env), timeoutMs: 60_000 });
      const report = failed && `\`${failed.command}\` exited ${failed.code ?? failed.signal}\nstdout:\n${failed.stdout}\nstderr:\n${failed.stderr}`;
      expect(report).toBeNull();
      expect(runs.map((r) => r.command)).toEqual(commands);
    } finally {
      await keyring.close();
    }
  }, 240_000);

  it('runs right after the Quick start, with no bo on PATH, as the README says: each `bo` typed as `npx bo`, from the clone', async () => {
    // The Quick start installs nothing on PATH (`npm ci && npx bo …`): the tour's intro
    // says what to type instead, and that must work as written.
    const intro = readme().split(`## ${TOUR}`)[1]!.split('```sh')[0]!;
    expect(intro).toContain('`npx bo`');
    const commands = tourCommands(readme(), TOUR).map((c) => c.replace(/(^|\| |')bo /g, '$1npx bo '));
    expect(commands.every((c) => !/(^|\| |')bo /.test(c))).toBe(true);
    const root = tempDir();
    mkdirSync(join(root, 'home'));
    const env = {
      // Node and npm, and nothing that holds a bo.
      PATH: process.env.PATH!.split(':').filter((dir) => !existsSync(join(dir, 'bo'))).join(':'),
      HOME: join(root, 'home'),
      BO_CONFIG_DIR: join(root, 'config'),
      BO_DATA_DIR: join(root, 'data'),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(root, 'no-bus')}`,
      npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
      npm_config_update_notifier: 'false',
    };
    const { runs, failed } = await runInOrder(commands, { cwd: repo, env, timeoutMs: 60_000 });
    const report = failed && `\`${failed.command}\` exited ${failed.code ?? failed.signal}\nstdout:\n${failed.stdout}\nstderr:\n${failed.stderr}`;
    expect(report).toBeNull();
    expect(runs).toHaveLength(commands.length);
  }, 240_000);

  it('runs as written with no Secret Service on the bus: the sandbox token goes to the 0600 file', async () => {
    const commands = tourCommands(readme(), TOUR);
    const root = tempDir();
    // No keychain at all: the bus names a socket that does not exist.
    const env = userEnv(root, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(root, 'no-bus')}` });
    const { runs, failed } = await runInOrder(commands, { cwd: root, env, timeoutMs: 60_000 });
    const report = failed && `\`${failed.command}\` exited ${failed.code ?? failed.signal}\nstdout:\n${failed.stdout}\nstderr:\n${failed.stderr}`;
    expect(report).toBeNull();
    expect(runs.map((r) => r.command)).toEqual(commands);
    // `auth status` says where the sandbox token is kept: the file, with its path.
    const status = runs.find((r) => / auth status/.test(r.command))!;
    expect(status.stdout).toContain(`Source\tfile: ${join(root, 'config', 'credentials.json')}\n`);
  }, 240_000);

  it('shows what the README promises: a two-factor sign-in, lists, a change, a batch and a dry run', () => {
    const commands = tourCommands(readme(), TOUR);
    expect(commands.length).toBeGreaterThanOrEqual(8);
    expect(commands.every((c) => /(^|\| )bo --sandbox /.test(c))).toBe(true);
    expect(commands.some((c) => /bo --sandbox login .*--password-stdin.*--code-command/.test(c))).toBe(true);
    expect(commands.some((c) => / accounts list /.test(c))).toBe(true);
    expect(commands.some((c) => / extend-trial acc_\w+ --to /.test(c))).toBe(true);
    expect(commands.some((c) => /\| bo --sandbox \S+ \S+ - /.test(c))).toBe(true);
    expect(commands.some((c) => / --dry-run/.test(c))).toBe(true);
  });
});

describe('the tour runner', () => {
  const markdown = [
    '# t',
    '## A five-minute tour on something',
    'Text.',
    '```sh',
    '# a comment line',
    'echo one >> order.txt     # a trailing comment',
    '',
    'echo two \\',
    '  >> order.txt',
    'false | echo three >> order.txt',
    'echo four >> order.txt',
    '```',
    '## Next',
    '```sh',
    'echo never',
    '```',
  ].join('\n');

  it('reads the commands of the block under the heading, joining continued lines', () => {
    expect(tourCommands(markdown, TOUR)).toEqual([
      'echo one >> order.txt     # a trailing comment',
      'echo two   >> order.txt',
      'false | echo three >> order.txt',
      'echo four >> order.txt',
    ]);
    expect(() => tourCommands('# t\n## Other\n```sh\nbo x\n```\n', TOUR)).toThrow(/no "## A five-minute tour" heading/);
    expect(() => tourCommands(`## ${TOUR}\nno block\n## Next\n\`\`\`sh\nx\n\`\`\`\n`, TOUR)).toThrow(/no ```sh block/);
  });

  it('runs them in order and stops at the first that fails, a failing pipe stage included', async () => {
    const root = tempDir();
    const { runs, failed } = await runInOrder(tourCommands(markdown, TOUR), { cwd: root, env: userEnv(root), timeoutMs: 10_000 });
    expect(runs.map((r) => r.code)).toEqual([0, 0, 1]);
    expect(failed?.command).toBe('false | echo three >> order.txt');
    expect(readFileSync(join(root, 'order.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });
});
