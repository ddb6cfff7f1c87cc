// The small pieces of the login flow that need no server: what the code prompt accepts,
// the hint it shows, the code a command printed, the secret and the recovery box as
// shown, and the status line that rewrites itself on a terminal.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Challenge } from '../../src/api/tokens.js';
import { choicesHint, normalizeCode, parseCodeAnswer } from '../../src/auth/login/answers.js';
import { firstCode } from '../../src/auth/login/code-command.js';
import { createScreen } from '../../src/auth/login/screen.js';
import { groupsOfFour, recoveryBox } from '../../src/auth/login/secrets-display.js';

const challenge = (over: Partial<Challenge>): Challenge => ({
  challenge_token: 't',
  mechanism: 'Email',
  masked_destination: 'a****@example.com',
  expires_in: 600,
  available_mechanisms: ['Email', 'Totp'],
  recovery_codes_available: true,
  ...over,
});

describe('the code prompt', () => {
  it('takes six digits, forgiving spaces and dashes, and nothing else as a code', () => {
    expect(normalizeCode('123456')).toBe('123456');
    expect(normalizeCode(' 123 456 ')).toBe('123456');
    expect(normalizeCode('123-456')).toBe('123456');
    expect(normalizeCode('12345')).toBeNull();
    expect(normalizeCode('1234567')).toBeNull();
    expect(normalizeCode('12a456')).toBeNull();
  });

  it('offers resend only for Email, switch only when the other method exists, recovery only when codes are left', () => {
    expect(choicesHint(challenge({}))).toBe(
      'Type the 6-digit code, or r to resend the email, s to use the authenticator app instead, c to use a recovery code.',
    );
    const totpOnly = challenge({ mechanism: 'Totp', masked_destination: null, available_mechanisms: ['Totp'], recovery_codes_available: false });
    expect(choicesHint(totpOnly)).toBe('Type the 6-digit code.');
    expect(parseCodeAnswer('r', totpOnly)).toBeNull();
    expect(parseCodeAnswer('s', totpOnly)).toBeNull();
    expect(parseCodeAnswer('c', totpOnly)).toBeNull();
  });

  it('reads letters and words for the available choices', () => {
    const ch = challenge({});
    expect(parseCodeAnswer('R', ch)).toEqual({ kind: 'resend' });
    expect(parseCodeAnswer('resend', ch)).toEqual({ kind: 'resend' });
    expect(parseCodeAnswer('switch', ch)).toEqual({ kind: 'switch', to: 'Totp' });
    expect(parseCodeAnswer('s', challenge({ mechanism: 'Totp' }))).toEqual({ kind: 'switch', to: 'Email' });
    expect(parseCodeAnswer('recovery', ch)).toEqual({ kind: 'recovery', code: '' });
    expect(parseCodeAnswer('hello', ch)).toBeNull();
  });
});

describe('--code-command output', () => {
  it('uses the first 6-digit number, not part of a longer one', () => {
    expect(firstCode('123456\n')).toBe('123456');
    expect(firstCode('job 1234567 done; code: 042042, next 111111')).toBe('042042');
    expect(firstCode('no code')).toBeNull();
  });

  it('finds any code surrounded by non-digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[^0-9]*$/), fc.stringMatching(/^[0-9]{6}$/), fc.stringMatching(/^[^0-9]*$/), (a, code, b) => {
        expect(firstCode(`${a}${code}${b}`)).toBe(code);
      }),
    );
  });
});

describe('secrets on screen', () => {
  it('groups the secret by four', () => {
    expect(groupsOfFour('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupsOfFour('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });

  it('boxes the recovery codes with the warning, every line the same width', () => {
    const box = recoveryBox(['aaaa-bbbb', 'cccc-dddd']);
    expect(box[0]!.startsWith('┌')).toBe(true);
    expect(box.at(-1)!.startsWith('└')).toBe(true);
    expect(new Set(box.map((l) => [...l].length)).size).toBe(1);
    expect(box.join('\n')).toContain('save these now');
    expect(box.join('\n')).toContain('They will not be shown again.');
    expect(box.filter((l) => /aaaa-bbbb|cccc-dddd/.test(l))).toHaveLength(2);
  });
});

describe('the status line', () => {
  const capture = (tty: boolean) => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (d) => (text += d));
    return { screen: createScreen(stream, tty), text: () => text };
  };

  it('rewrites itself in place on a terminal and ends with a newline', () => {
    const c = capture(true);
    c.screen.status('3 s');
    c.screen.status('2 s');
    c.screen.status(null);
    c.screen.say('done');
    expect(c.text()).toBe('\r\u001b[2K3 s\r\u001b[2K2 s\ndone\n');
  });

  it('writes only its first line to a log', () => {
    const c = capture(false);
    c.screen.status('3 s');
    c.screen.status('2 s');
    c.screen.status(null);
    c.screen.say('done');
    expect(c.text()).toBe('3 s\ndone\n');
  });
});
