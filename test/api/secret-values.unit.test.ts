// The run's secrets scrubbed by value (src/api/secret-values.ts): every form a secret
// may take in text a server echoes (as is, percent-encoded, JSON-escaped, base64 in
// any alignment), for generated secrets with regular-expression characters and
// non-ASCII text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/api/redact.js';
import { SecretValues, scrubForms, secretForms } from '../../src/api/secret-values.js';

const special = fc.constantFrom(...'.*+?^$\\{}()|[]/:%"\'<>&=`~#@!,; -_');
const ascii = fc.constantFrom(...'abcXYZ0189');
const wide = fc.constantFrom('é', 'ß', 'Ω', '中', '文', '😀', '\u200b', '\u202e', '\u00a0', '\u0085');
const anyChar = fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' });
const secret = fc
  .string({ minLength: 4, maxLength: 24, unit: fc.oneof(special, ascii, wide, anyChar) })
  .filter((s) => !s.includes(REDACTED));
const around = fc.string({ maxLength: 20, unit: fc.oneof(special, ascii, wide) });

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The forms, written out here on their own rather than taken from the module. */
function formsOf(s: string): string[] {
  const percent = encodeURIComponent(s);
  let uEscaped = '';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    uEscaped += unit > 0x7e ? `\\u${unit.toString(16).padStart(4, '0')}` : JSON.stringify(s[i]).slice(1, -1);
  }
  return [
    s,
    percent,
    percent.toLowerCase() === percent ? percent : percent.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    encodeURI(s),
    new URLSearchParams({ q: s }).toString().slice(2),
    JSON.stringify(s).slice(1, -1),
    uEscaped,
    b64(s),
    b64(s).replace(/=+$/, ''),
    Buffer.from(s).toString('base64url'),
  ];
}

/** The text between markers: what a reader sees of the original. */
const pieces = (text: string) => text.split(REDACTED);

describe('properties', () => {
  it('a text embedding a secret in any form keeps no form of it between the markers', () => {
    fc.assert(
      fc.property(secret, around, around, fc.nat(), (s, before, after, pick) => {
        const forms = formsOf(s);
        const form = forms[pick % forms.length]!;
        const secrets = new SecretValues();
        secrets.add(s);
        const text = `${before}${form}${after} and again ${form}`;
        const out = secrets.scrub(text);
        expect(out).toContain(REDACTED);
        for (const piece of pieces(out)) for (const f of forms) expect(piece).not.toContain(f);
      }),
      { numRuns: 1000 },
    );
  });

  it('base64 of a text holding the secret anywhere (any alignment) no longer decodes to it', () => {
    fc.assert(
      fc.property(secret, around, around, (s, before, after) => {
        const secrets = new SecretValues();
        secrets.add(s);
        fc.pre(Buffer.byteLength(s) >= 6); // shorter secrets leave too short a base64 fragment to scrub
        for (const encoded of [b64(`${before}${s}${after}`), Buffer.from(`${before}${s}${after}`).toString('base64url')]) {
          const out = secrets.scrub(encoded);
          for (const piece of pieces(out)) {
            for (let offset = 0; offset < 4; offset++) {
              expect(Buffer.from(piece.slice(offset), 'base64').includes(Buffer.from(s))).toBe(false);
            }
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('several secrets that overlap (a key, its secret, key:secret) leave no form of any', () => {
    fc.assert(
      fc.property(secret, secret, around, (key, value, before) => {
        const secrets = new SecretValues();
        secrets.add(key, value, `${key}:${value}`);
        const all = [key, value, `${key}:${value}`].flatMap(formsOf);
        const text = `${before}${all.join(' | ')}${before}`;
        for (const piece of pieces(secrets.scrub(text))) for (const f of all) expect(piece).not.toContain(f);
      }),
      { numRuns: 200 },
    );
  });

  it('text without the secret comes back unchanged', () => {
    fc.assert(
      fc.property(secret, around, (s, text) => {
        fc.pre(secretForms(s).every((f) => !text.includes(f)));
        const secrets = new SecretValues();
        secrets.add(s);
        expect(secrets.scrub(text)).toBe(text);
      }),
    );
  });
});

describe('SecretValues', () => {
  it('scrubs the forms servers use: .NET-style \\u escapes, a header read as Latin-1, base64 of key:secret', () => {
    const secrets = new SecretValues();
    secrets.add('p+ss<wörd>');
    expect(secrets.scrub('a p\\u002Bss\\u003Cw\\u00F6rd\\u003E b')).toBe(`a ${REDACTED} b`);
    expect(secrets.scrub(`a ${Buffer.from('p+ss<wörd>').toString('latin1')} b`)).toBe(`a ${REDACTED} b`);
    expect(secrets.scrub(`Basic ${b64('ann:p+ss<wörd>')}`)).not.toContain(b64('p+ss<wörd>').slice(2, -3));
    secrets.add('AKbo7Qx2', 's3cr"t/x', 'AKbo7Qx2:s3cr"t/x');
    expect(secrets.scrub(`x AKbo7Qx2:s3cr"t/x y s3cr%22t%2Fx z s3cr\\"t/x ${b64('AKbo7Qx2:s3cr"t/x')}`)).toBe(
      `x ${REDACTED} y ${REDACTED} z ${REDACTED} ${REDACTED}`,
    );
  });

  it('ignores values shorter than 4 characters and empty ones; holds nothing until told', () => {
    const secrets = new SecretValues();
    expect(secrets.scrub('abc 123')).toBe('abc 123');
    secrets.add('abc', '', undefined, null);
    expect(secrets.scrub('abc 123')).toBe('abc 123');
  });

  it('learns the secret-named fields of a body, at any depth, arrays included', () => {
    const secrets = new SecretValues();
    secrets.addFields({ username: 'ada@example.com', password: 'hunter22', nested: [{ PaymentToken: 'tok_12345' }], recovery_codes: ['rc-1111', 'rc-2222'], code: 123456 });
    expect(secrets.scrub('ada@example.com hunter22 tok_12345 rc-1111 rc-2222')).toBe(`ada@example.com ${[1, 2, 3, 4].map(() => REDACTED).join(' ')}`);
    secrets.addFields({ secret: 'JBSWY3DPEHPK3PXP' }, false);
    secrets.addFields('whole-answer', true);
    expect(secrets.scrub('JBSWY3DPEHPK3PXP whole-answer')).toBe(`${REDACTED} ${REDACTED}`);
  });

  it('scrubs a parsed answer, keys and strings, leaving other values', () => {
    const secrets = new SecretValues();
    secrets.add('tok_12345');
    expect(secrets.scrubValue({ a: ['x tok_12345', 3, null, true], tok_12345: { b: 'tok_12345' } })).toEqual({
      a: [`x ${REDACTED}`, 3, null, true],
      [REDACTED]: { b: REDACTED },
    });
  });

  it('merges overlapping and nested occurrences into one marker', () => {
    expect(scrubForms('xxabcdefyy', ['abcd', 'cdef', 'bc'])).toBe(`xx${REDACTED}yy`);
    expect(scrubForms('abab', ['ab'])).toBe(`${REDACTED}${REDACTED}`);
    expect(scrubForms('aaaaa', ['aaaa'])).toBe(REDACTED);
  });
});
