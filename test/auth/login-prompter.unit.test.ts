// The terminal prompter (inquirer's prompts on io.stdin/io.stderr): answers come from the
// input stream, prompts are drawn on stderr, and both an aborted run (ctx.signal, as
// Ctrl-C outside a prompt does) and a prompt closed with Ctrl-C become InterruptedError.

import { describe, expect, it } from 'vitest';
import { createPrompter } from '../../src/auth/prompter.js';
import { InterruptedError } from '../../src/errors.js';
import { terminal } from '../helpers/terminal.js';

describe('terminal prompter', () => {
  it('reads an answer from stdin and draws the prompt on stderr, never stdout', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Code from the email');
    setTimeout(() => t.stdin.write('123456\n'), 20);
    expect(await answer).toBe('123456');
    expect(t.stderr()).toContain('Code from the email');
    expect(t.stdout()).toBe('');
  });

  it('keeps a password off the screen', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.password('Password');
    setTimeout(() => t.stdin.write('s3cret-pw\n'), 20);
    expect(await answer).toBe('s3cret-pw');
    expect(t.stderr()).toContain('Password');
    expect(t.stderr()).not.toContain('s3cret-pw');
  });

  it('turns an abort of the run into InterruptedError (exit 130)', async () => {
    const t = terminal();
    const controller = new AbortController();
    const p = await createPrompter(t.io, controller.signal);
    const answer = p.input('Email');
    setTimeout(() => controller.abort(), 20);
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    await expect(p.input('Email')).rejects.toBeInstanceOf(InterruptedError);
  });

  it('turns Ctrl-C in a prompt into InterruptedError', async () => {
    const t = terminal();
    const p = await createPrompter(t.io, new AbortController().signal);
    const answer = p.input('Email');
    setTimeout(() => t.stdin.write('\u0003'), 20);
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
  });
});
