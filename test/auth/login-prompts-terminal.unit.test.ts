// The terminal prompter as a person meets it at `bo login`: a refused entry is cleared
// (the next code is not appended to it), a code the server has yet to judge is not
// marked with a green tick, and the enrollment choice answers the keys people press.
import { describe, expect, it } from 'vitest';
import { ENROLL_CHOICES, normalizeCode } from '../../src/auth/login/answers.js';
import { createPrompter } from '../../src/auth/prompter.js';
import { answered, terminal, visible } from '../helpers/terminal.js';

describe('a refused entry at a code prompt', () => {
  it('is cleared: the code typed next is read alone, not appended to the refused one', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Code from the email', { validate: (v) => (normalizeCode(v) ? true : 'Type the 6-digit code'), checkedLater: true });
    await t.type('12345', '\r');
    // The refusal is shown, and the prompt line no longer holds the refused text.
    const lastPromptLineOf = (screen: string) => screen.split(/\r|\n/).filter((l) => l.includes('Code from the email')).at(-1) ?? '';
    const screen = visible(await t.waitFor((s) => visible(s).includes('Type the 6-digit code') && !lastPromptLineOf(visible(s)).includes('12345')));
    expect(screen).toContain('Type the 6-digit code');
    const lastPromptLine = lastPromptLineOf(screen);
    expect(lastPromptLine).not.toContain('12345');
    await t.type('654321', '\r');
    expect(await answered(answer)).toBe('654321');
  });
});

describe('the mark of a submitted answer', () => {
  it('a code the server has yet to check gets a neutral mark, not a green tick', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Code from your authenticator app', { checkedLater: true });
    await t.type('123456', '\r');
    expect(await answered(answer)).toBe('123456');
    expect(visible(t.stderr())).toContain('› Code from your authenticator app 123456');
    expect(t.stderr()).not.toContain('✔');
  });

  it('an answer that is final as typed (the email) keeps the tick', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Email');
    await t.type('ada@example.com', '\r');
    expect(await answered(answer)).toBe('ada@example.com');
    expect(visible(t.stderr())).toContain('✔ Email ada@example.com');
  });
});

describe('the enrollment method prompt', () => {
  async function choose(...keys: string[]): Promise<{ value: string; screen: string }> {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.select('How do you want to receive sign-in codes?', ENROLL_CHOICES);
    await t.type(...keys);
    return { value: await answered(answer), screen: visible(t.stderr()) };
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
