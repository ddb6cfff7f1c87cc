// The terminal prompter as a person meets it at `bo login`: a refused entry is cleared
// (the next code is not appended to it), a code the server has yet to judge is not
// marked with a green tick, and the enrollment choice answers the keys people press.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ENROLL_CHOICES, normalizeCode } from '../../src/auth/login/answers.js';
import { createPrompter } from '../../src/auth/prompter.js';
import type { Io } from '../../src/context.js';

function terminal() {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  stderr.on('data', (d) => (err += d));
  const io: Io = { stdin, stdout: new PassThrough(), stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, env: {} };
  return { io, stdin, stderr: () => err };
}

const pause = (ms = 30) => new Promise((r) => setTimeout(r, ms));
const visible = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

/** Types `keys` one write at a time, as a person would, with a pause between. */
async function typeKeys(stdin: PassThrough, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    await pause();
    stdin.write(k);
  }
}

function within<T>(p: Promise<T>, ms = 2000): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('the prompt never answered')), ms))]);
}

describe('a refused entry at a code prompt', () => {
  it('is cleared: the code typed next is read alone, not appended to the refused one', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Code from the email', { validate: (v) => (normalizeCode(v) ? true : 'Type the 6-digit code'), checkedLater: true });
    await typeKeys(t.stdin, '12345', '\r');
    await pause(50);
    // The refusal is shown, and the prompt line no longer holds the refused text.
    const screen = visible(t.stderr());
    expect(screen).toContain('Type the 6-digit code');
    const lastPromptLine = screen.split(/\r|\n/).filter((l) => l.includes('Code from the email')).at(-1)!;
    expect(lastPromptLine).not.toContain('12345');
    await typeKeys(t.stdin, '654321', '\r');
    expect(await within(answer)).toBe('654321');
  });
});

describe('the mark of a submitted answer', () => {
  it('a code the server has yet to check gets a neutral mark, not a green tick', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Code from your authenticator app', { checkedLater: true });
    await typeKeys(t.stdin, '123456', '\r');
    expect(await within(answer)).toBe('123456');
    expect(visible(t.stderr())).toContain('› Code from your authenticator app 123456');
    expect(t.stderr()).not.toContain('✔');
  });

  it('an answer that is final as typed (the email) keeps the tick', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Email');
    await typeKeys(t.stdin, 'ada@example.com', '\r');
    expect(await within(answer)).toBe('ada@example.com');
    expect(visible(t.stderr())).toContain('✔ Email ada@example.com');
  });
});

describe('the enrollment method prompt', () => {
  async function choose(...keys: string[]): Promise<{ value: string; screen: string }> {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.select('How do you want to receive sign-in codes?', ENROLL_CHOICES);
    await typeKeys(t.stdin, ...keys);
    return { value: await within(answer), screen: visible(t.stderr()) };
  }

  it('numbers the choices', async () => {
    const { screen } = await choose('\r');
    expect(screen).toMatch(/1\. TOTP/);
    expect(screen).toMatch(/2\. Email/);
  });

  it.each([
    [['e', '\r'], 'email'],
    [['\u001b[B', 't', '\r'], 'totp'],
    [['\u001b[B', 'totp', '\r'], 'totp'],
    [['email', '\r'], 'email'],
    [['2', '\r'], 'email'],
    [['\u001b[B', '1', '\r'], 'totp'],
    [['\r'], 'totp'],
  ])('keys %j choose %s', async (keys, expected) => {
    expect((await choose(...keys)).value).toBe(expected);
  });
});
