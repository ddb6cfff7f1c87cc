// The enrollment QR of `bo login` on the terminals people have: too narrow for it (no
// QR: it would wrap and not scan; the secret and --qr-png instead), a locale that is not
// UTF-8 (spaces on explicit background colours, read back and decoded by zbarimg), no
// colour at all (no QR). The prompt marks under LANG=C are ASCII.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENROLL_CHOICES } from '../../src/auth/login/answers.js';
import { createPrompter } from '../../src/auth/prompter.js';
import { qrMatrix, QUIET_ZONE } from '../../src/auth/qr.js';
import { displayWidth } from '../../src/output/width.js';
import { decodeWithZbar, pngFromMatrix } from '../e2e/qr-image.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';
import { answered, terminal, visible } from '../helpers/terminal.js';
import { totpCode } from '../helpers/totp.js';
import { boLogin, sandboxClock, secretOnScreen, startLoginSandbox, type Live, type LoginSandbox } from './login-harness.js';

let sandbox: LoginSandbox;
beforeEach(async () => {
  sandbox = await startLoginSandbox();
});
afterEach(async () => {
  await sandbox?.close();
});

/** Enrols the `enroll` user with an authenticator on a terminal `columns` wide, in `env`. */
async function enroll(columns: number | undefined, env: Record<string, string>, args: string[] = []) {
  const user = await sandbox.user('enroll');
  const live: Live = { stderr: '' };
  const prompter = scriptedPrompter([
    { password: 'Password', answer: user.password },
    { select: 'How do you want to receive sign-in codes?', answer: 'totp' },
    { input: 'Code from your authenticator app', answer: async () => totpCode(secretOnScreen(live.stderr), await sandbox.now()) },
  ]);
  const r = await boLogin(sandbox, ['--username', user.username, '--recovery-codes-file', join(mkdtempSync(join(tmpdir(), 'bo-qr-')), 'codes.txt'), ...args], {
    stdinIsTTY: true,
    stderrIsTTY: true,
    stdoutIsTTY: true,
    prompter,
    live,
    env,
    ...(columns === undefined ? {} : { columns }),
  });
  expect(r.code, r.stderr).toBe(0);
  const uri = /Setup URI: (\S+)/.exec(r.stderr)![1]!;
  return { stderr: r.stderr, uri };
}

/** The module matrix of a QR drawn with two spaces a module on background colours 16 (dark) and 231 (light). */
function matrixFromSpaces(lines: string[]): boolean[][] {
  return lines.map((line) => {
    const row: boolean[] = [];
    for (const m of line.matchAll(/\u001b\[38;5;(\d+);48;5;(\d+)m( +)/g)) {
      expect(m[1]).toBe(m[2]);
      expect(m[3]!.length % 2).toBe(0);
      for (let i = 0; i < m[3]!.length / 2; i++) row.push(m[2] === '16');
    }
    return row;
  });
}

describe('the enrollment QR on a terminal', () => {
  it('at 50 columns: no QR (it would wrap and not scan); it says why, and gives the secret and --qr-png', async () => {
    const { stderr, uri } = await enroll(50, { LANG: 'en_US.UTF-8' });
    const width = 2 + qrMatrix(uri).length + 2 * QUIET_ZONE;
    expect(width).toBeGreaterThan(50);
    expect(stderr).not.toContain('\u2580');
    expect(stderr).not.toContain('Scan this QR code');
    expect(stderr).toContain(`No QR code here: it needs ${width} columns and the terminal has 50`);
    expect(stderr).toMatch(/In your authenticator app, enter this secret by hand: (?:[A-Z2-7]{4} )+[A-Z2-7]{1,4}\n/);
    expect(stderr).toContain('--qr-png <file>');
    for (const line of stderr.split('\n').filter((l) => l.startsWith('No QR') || l.startsWith('In your authenticator'))) {
      expect(line).not.toMatch(/\u001b/);
    }
  });

  it('at 120 columns and UTF-8: the half-block QR, every line within the width', async () => {
    const { stderr } = await enroll(120, { LANG: 'en_US.UTF-8' });
    const qrLines = stderr.split('\n').filter((l) => l.includes('\u2580'));
    expect(qrLines.length).toBeGreaterThan(10);
    for (const line of qrLines) expect(displayWidth(visible(line))).toBeLessThanOrEqual(120);
  });

  it('LANG=C: spaces on explicit background colours, no block characters, and it decodes', async () => {
    const { stderr, uri } = await enroll(200, { LANG: 'C' });
    expect(stderr).toContain('Scan this QR code with your authenticator app:');
    expect(stderr).not.toMatch(/[\u2580-\u259f]/);
    const qrLines = stderr.split('\n').filter((l) => l.startsWith('  \u001b[38;5;'));
    const matrix = matrixFromSpaces(qrLines.map((l) => l.slice(2)));
    expect(matrix.length).toBe(qrMatrix(uri).length + 2 * QUIET_ZONE);
    for (const row of matrix) expect(row.length).toBe(matrix.length);
    expect(decodeWithZbar(join(mkdtempSync(join(tmpdir(), 'bo-qr-')), 'qr.png'), pngFromMatrix(matrix))).toBe(uri);
  });

  // One encoder (src/auth/qr-matrix.ts) draws both: the code a phone scans off the
  // terminal and the sandbox's PNG that --qr-png writes hold the same setup URI.
  it('the terminal QR and the PNG --qr-png writes decode to the same otpauth URI', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-qr-'));
    const { stderr, uri } = await enroll(200, { LANG: 'C' }, ['--qr-png', join(dir, 'setup.png')]);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(stderr).toContain(`Wrote the QR code to ${join(dir, 'setup.png')}`);
    const matrix = matrixFromSpaces(stderr.split('\n').filter((l) => l.startsWith('  \u001b[38;5;')).map((l) => l.slice(2)));
    const fromTerminal = decodeWithZbar(join(dir, 'terminal.png'), pngFromMatrix(matrix));
    const fromPng = decodeWithZbar(join(dir, 'copy.png'), readFileSync(join(dir, 'setup.png')));
    expect(fromTerminal).toBe(uri);
    expect(fromPng).toBe(fromTerminal);
  });

  it.each([[{ NO_COLOR: '1' }], [{ TERM: 'dumb' }]])('with no colour (%j): no QR; the secret and --qr-png instead', async (env) => {
    const { stderr } = await enroll(200, { LANG: 'en_US.UTF-8', ...env });
    expect(stderr).not.toMatch(/\u001b\[38;5;/);
    expect(stderr).toContain('No QR code here: colour is off');
    expect(stderr).toMatch(/In your authenticator app, enter this secret by hand: [A-Z2-7 ]+\n/);
    expect(stderr).toContain('--qr-png <file>');
  });
});

describe('prompt marks under LANG=C', () => {
  const prompterIn = async (env: Record<string, string>) => {
    const t = terminal();
    t.io.env = env;
    return { t, p: await createPrompter(t.io, new AbortController().signal) };
  };

  it('an answer gets + (not ✔), a code on its way > (not ›)', async () => {
    const first = await prompterIn({ LANG: 'C' });
    const email = first.p.input('Email');
    await first.t.type('ada@example.com', '\r');
    expect(await answered(email)).toBe('ada@example.com');
    expect(visible(first.t.stderr())).toContain('+ Email ada@example.com');
    const second = await prompterIn({ LANG: 'C' });
    const code = second.p.input('Code from the email', { checkedLater: true });
    await second.t.type('123456', '\r');
    expect(await answered(code)).toBe('123456');
    expect(visible(second.t.stderr())).toContain('> Code from the email 123456');
    for (const t of [first.t, second.t]) expect(t.stderr()).not.toMatch(/[^\u0000-\u007f]/);
  });

  it('a choice list points with >, and UTF-8 keeps its marks', async () => {
    const { t, p } = await prompterIn({ LANG: 'C' });
    const choice = p.select('How do you want to receive sign-in codes?', ENROLL_CHOICES);
    await t.type('\r');
    await answered(choice);
    expect(t.stderr()).not.toMatch(/[^\u0000-\u007f]/);
    expect(visible(t.stderr())).toMatch(/> 1\. TOTP/);
    const utf8 = await prompterIn({ LANG: 'en_US.UTF-8' });
    const email = utf8.p.input('Email');
    await utf8.t.type('ada@example.com', '\r');
    await answered(email);
    expect(visible(utf8.t.stderr())).toContain('✔ Email ada@example.com');
  });
});
