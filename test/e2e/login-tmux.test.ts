// `bo login` end to end, as a person at a real terminal: the built binary runs in a
// tmux pane against a sandbox; the test reads the screen, types like a person, computes
// the TOTP code with Debian's oathtool from the secret shown, and reads the stored token
// back from a real gnome-keyring with secret-tool. A first run photographs the QR code
// off the pane (with its colours), decodes it with zbarimg, then presses Ctrl-C, which
// leaves the user still to enroll for the second run.
//
// Needs the Secret Service of .ci/keyring.sh: bash .ci/keyring.sh npx vitest run

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eSandbox, type E2eSandbox } from './sandbox-process.js';
import { decodeWithZbar, matrixFromAnsi, pngFromMatrix } from './qr-image.js';
import { makeCerts } from '../hardening/tls-certs.js';
import { serveTls } from '../helpers/tls-sandbox.js';
import { ensureBuilt } from '../helpers/run-bin.js';
import { tmuxServer } from '../helpers/tmux.js';

const root = join(import.meta.dirname, '..', '..');
const socket = `bo-e2e-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'bo-e2e-login-'));
let sandbox: E2eSandbox;

const tmux = tmuxServer(socket, 20_000);
const { screen, waitFor } = tmux;



function type(session: string, text: string): void {
  tmux('send-keys', '-t', session, '-l', text);
  tmux('send-keys', '-t', session, 'Enter');
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface LoginPane {
  /** The base URL (default: the sandbox's). */
  url?: string;
  /** The pane's size (default 200×80). */
  columns?: number;
  rows?: number;
}

/** Starts `bo login` in a new pane; afterwards the pane shows the exit code and the tty's echo mode. */
function startLogin(session: string, profile: string, pane: LoginPane = {}): void {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS ?? '',
    BO_CONFIG_DIR: join(work, 'config'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
  const command = [
    'env -i',
    ...Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`),
    `node ${quote(join(root, 'bin', 'bo.js'))} login --base-url ${quote(pane.url ?? sandbox.url)} -p ${quote(profile)}`,
    // Then the shell reports the exit code and whether the terminal echoes again.
    '; echo EXIT=$?; stty -a | tr " " "\\n" | grep -x -- "-\\?echo" | sed "s/^/TTY-ECHO=/"; sleep 600',
  ].join(' ');
  // One argument: tmux hands it to the shell whole, so its ';' need no escaping.
  tmux('new-session', '-d', '-s', session, '-x', String(pane.columns ?? 200), '-y', String(pane.rows ?? 80), `bash -c ${quote(command)}`);
}

function keychainLookup(profile: string): { status: number | null; stdout: string } {
  const r = spawnSync('secret-tool', ['lookup', 'service', 'bo', 'username', profile], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout };
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error('no D-Bus session: run the suite as `bash .ci/keyring.sh npx vitest run`');
  }
  ensureBuilt();
  sandbox = await startE2eSandbox(root);
}, 120_000);

afterAll(async () => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  await sandbox?.close();
});

describe('bo login in a terminal (tmux)', () => {
  it('clears a refused entry, marks a typed code neutrally, and says when it was not accepted', async () => {
    const user = await sandbox.user('totp');
    const profile = `e2e-code-${process.pid}`;
    startLogin('code', profile);
    await waitFor('code', 'Email');
    type('code', user.username);
    await waitFor('code', 'Password');
    type('code', user.password);
    await waitFor('code', 'Type the 6-digit code, or c to use a recovery code.');
    await waitFor('code', '? Code from your authenticator app');
    // Five digits: refused at the prompt, and the prompt line is empty again.
    type('code', '12345');
    const refused = await waitFor('code', '> Type the 6-digit code');
    expect(refused).toMatch(/^\? Code from your authenticator app\s*$/m);
    // A wrong code is not shown as accepted: a neutral mark, then the refusal.
    const secret = user.totpSecret!;
    const now = () => execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    const bad = String((Number(now()) + 500_000) % 1_000_000).padStart(6, '0');
    type('code', bad);
    const after = await waitFor('code', 'That code was not accepted: 4 attempts left.');
    expect(after).toContain(`› Code from your authenticator app ${bad}`);
    expect(after).not.toContain(`✔ Code from`);
    // The next code is read alone and signs in.
    type('code', now());
    const done = await waitFor('code', /TTY-ECHO=\S+/);
    expect(done).toContain('EXIT=0');
    expect(done).toMatch(/Signed in as /);
    expect(done).toContain('TTY-ECHO=echo');
  });

  it('draws a QR code that zbarimg decodes to the otpauth URI; Ctrl-C then stores nothing', async () => {
    const user = await sandbox.user('enroll');
    const profile = `e2e-qr-${process.pid}`;
    startLogin('qr', profile);
    await waitFor('qr', 'Email');
    type('qr', user.username);
    await waitFor('qr', 'Password');
    type('qr', user.password);
    await waitFor('qr', 'How do you want to receive sign-in codes?');
    // Keys pick the method: down to Email, then "t" back to TOTP; the numbers show.
    expect(await waitFor('qr', '2. Email')).toContain('1. TOTP');
    tmux('send-keys', '-t', 'qr', 'Down');
    await waitFor('qr', /❯ 2\. Email/);
    tmux('send-keys', '-t', 'qr', '-l', 't');
    await waitFor('qr', /❯ 1\. TOTP/);
    tmux('send-keys', '-t', 'qr', 'Enter');
    const shown = await waitFor('qr', /Code from your authenticator app/);
    const uri = /Setup URI: (otpauth:\S+)/.exec(shown)![1]!;
    const matrix = matrixFromAnsi(screen('qr', true));
    expect(decodeWithZbar(join(work, 'pane-qr.png'), pngFromMatrix(matrix))).toBe(uri);

    tmux('send-keys', '-t', 'qr', 'C-c');
    const after = await waitFor('qr', /TTY-ECHO=\S+/);
    expect(after).toContain('EXIT=130');
    expect(after).toContain('TTY-ECHO=echo');
    expect(keychainLookup(profile).status).not.toBe(0);
  });
  it('in an 80×24 terminal draws no QR code that would scroll off: says how many rows it needs, offers the secret and --qr-png', async () => {
    const user = await sandbox.user('enroll');
    const profile = `e2e-short-${process.pid}`;
    startLogin('short', profile, { columns: 80, rows: 24 });
    await waitFor('short', 'Email');
    type('short', user.username);
    await waitFor('short', 'Password');
    type('short', user.password);
    await waitFor('short', 'How do you want to receive sign-in codes?');
    tmux('send-keys', '-t', 'short', 'Enter'); // the authenticator app
    const shown = await waitFor('short', /Code from your authenticator app/);
    const text = shown.replace(/\s+/g, ' ');
    const rows = /No QR code here: it needs (\d+) rows with its prompt and the terminal has 24/.exec(text);
    expect(rows, shown).not.toBeNull();
    expect(Number(rows![1])).toBeGreaterThan(24);
    expect(text).toMatch(/enter this secret by hand: [A-Z2-7]{4}( [A-Z2-7]{1,4})+/);
    expect(text).toContain(`run bo -p ${profile} login again with --qr-png <file>`);
    // Not a module of a QR code anywhere in the pane.
    expect(screen('short', true)).not.toContain('\u2580');
    tmux('send-keys', '-t', 'short', 'C-c');
    expect(await waitFor('short', /TTY-ECHO=\S+/)).toContain('EXIT=130');
  });

  it('stops before the first prompt when the server\'s certificate is not trusted, and prompts once ca-file trusts it', async () => {
    const certs = makeCerts();
    const tls = await serveTls(certs.good);
    try {
      const profile = `e2e-ca-${process.pid}`;
      startLogin('ca', profile, { url: tls.url });
      const refused = await waitFor('ca', /TTY-ECHO=\S+/);
      expect(refused).toContain('EXIT=1');
      expect(refused).toContain(`error: could not connect to ${tls.url}: the TLS certificate is not trusted (issued by an unknown authority)`);
      expect(refused.replace(/\s+/g, ' ')).toContain(`bo -p ${profile} config set ca-file <pem-file>`);
      expect(refused).not.toMatch(/Email|Password/);
      tmux('kill-session', '-t', 'ca');

      const set = execFileSync('node', [join(root, 'bin', 'bo.js'), '-p', profile, 'config', 'set', 'ca-file', certs.ca], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH, HOME: process.env.HOME, BO_CONFIG_DIR: join(work, 'config') },
      });
      expect(set).toBe('');
      startLogin('ca2', profile, { url: tls.url });
      await waitFor('ca2', 'Email');
      tmux('send-keys', '-t', 'ca2', 'C-c');
      expect(await waitFor('ca2', /TTY-ECHO=\S+/)).toContain('EXIT=130');
    } finally {
      tls.stop();
      rmSync(certs.dir, { recursive: true, force: true });
    }
  });

  it('enrolls an authenticator by reading the secret off the screen; the token lands in gnome-keyring', async () => {
    const user = await sandbox.user('enroll');
    const profile = `e2e-enroll-${process.pid}`;
    startLogin('enroll', profile);
    await waitFor('enroll', 'Email');
    type('enroll', user.username);
    await waitFor('enroll', 'Password');
    type('enroll', user.password);
    await waitFor('enroll', 'How do you want to receive sign-in codes?');
    tmux('send-keys', '-t', 'enroll', 'Enter'); // the first choice: authenticator app
    const shown = await waitFor('enroll', /Code from your authenticator app/);
    const secret = /secret by hand: ([A-Z2-7 ]+)/.exec(shown)![1]!.replace(/ /g, '');
    const code = execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
    type('enroll', code);
    const done = await waitFor('enroll', /TTY-ECHO=\S+/);
    expect(done).toContain('Recovery codes: save these now.');
    expect(done).toContain('They will not be shown again.');
    expect(done).toMatch(new RegExp(`Signed in as ${user.username.replace(/[.+]/g, '\\$&')} \\(127\\.0\\.0\\.1:\\d+\\) until`));
    expect(done).toContain('EXIT=0');
    expect(done).toContain('TTY-ECHO=echo');
    // The password never reached the screen.
    expect(done).not.toContain(user.password);

    const stored = keychainLookup(profile);
    expect(stored.status).toBe(0);
    expect(stored.stdout).toContain(user.username);
    const token = /eyJ[\w-]+\.[\w-]+\.[\w-]+/.exec(stored.stdout)?.[0];
    expect(token).toBeDefined();
    // The same token the CLI hands out, and the sandbox now holds the secret we read.
    const printed = execFileSync('node', [join(root, 'bin', 'bo.js'), '-p', profile, 'auth', 'token'], {
      encoding: 'utf8',
      env: { ...process.env, BO_CONFIG_DIR: join(work, 'config') },
    }).trim();
    expect(printed).toBe(token);
    const status = execFileSync('node', [join(root, 'bin', 'bo.js'), '-p', profile, 'auth', 'status'], {
      encoding: 'utf8',
      env: { ...process.env, BO_CONFIG_DIR: join(work, 'config') },
    });
    expect(status).toMatch(/Kind\ttoken/);
    expect(status).toMatch(/Source\tkeychain/);
    expect(status).toContain(user.username);
    expect((await sandbox.user('enroll')).totpSecret).toBe(secret);
  });

});
