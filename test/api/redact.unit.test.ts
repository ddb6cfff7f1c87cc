// The redaction rules behind --verbose, on their own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  REDACTED,
  isSecretName,
  redactAuthorization,
  redactHeader,
  redactJson,
  redactText,
  redactUrl,
} from '../../src/api/redact.js';
import { redactUserInfo } from '../../src/api/base-url.js';
import { SECRET_NAMES, secretValue } from './secrets-fixture.js';

describe('secret names', () => {
  it.each(SECRET_NAMES)('%s is secret', (name) => expect(isSecretName(name)).toBe(true));
  it.each(['Name', 'Email', 'Uid', 'token_type', 'expires_in', 'masked_destination', 'CaptchaSiteKey', 'DiscountCode', 'limit'])(
    '%s is not',
    (name) => expect(isSecretName(name)).toBe(false),
  );
});

describe('redactJson', () => {
  it('replaces secret fields at any depth, keeps the rest, booleans and nulls', () => {
    const input = {
      username: 'ann@example.com',
      password: 'hunter2',
      nested: [{ PaymentToken: 'tok_1', Name: 'card' }],
      recovery_codes: ['aaaa-bbbb', 'cccc-dddd'],
      recovery_codes_available: true,
      PasswordMustChange: false,
      code: 123456,
      CaptchaToken: null,
    };
    expect(redactJson(input)).toEqual({
      username: 'ann@example.com',
      password: REDACTED,
      nested: [{ PaymentToken: REDACTED, Name: 'card' }],
      recovery_codes: REDACTED,
      recovery_codes_available: true,
      PasswordMustChange: false,
      code: REDACTED,
      CaptchaToken: null,
    });
    expect(input.password).toBe('hunter2'); // a copy, not in place
  });
});

describe('headers, URLs and text', () => {
  it('keeps the scheme word of an Authorization value only', () => {
    expect(redactAuthorization('bearer abc.def.ghi')).toBe(`bearer ${REDACTED}`);
    expect(redactAuthorization('acme key:secret')).toBe(`acme ${REDACTED}`);
    expect(redactAuthorization('justonetoken')).toBe(REDACTED);
    expect(redactHeader('Authorization', 'bo k:s')).toBe(`bo ${REDACTED}`);
    expect(redactHeader('set-cookie', 'sid=1')).toBe(REDACTED);
    expect(redactHeader('content-type', 'application/json')).toBe('application/json');
  });

  it('redacts secret query parameters, repeated ones included', () => {
    const url = new URL('https://h/api/v1/x?token=abc&q=ann&code=1&code=2');
    expect(redactUrl(url)).toBe(`https://h/api/v1/x?q=ann&token=${REDACTED}&code=${REDACTED}&code=${REDACTED}`);
  });

  it('redacts JSON pairs in text that does not parse, form pairs and bearer words', () => {
    expect(redactText('{"password": "p\\"w", "Name": "x", "access_token": "cut-sho')).toBe(
      `{"password": "${REDACTED}", "Name": "x", "access_token": "${REDACTED}"`,
    );
    expect(redactText('{"code": 123456, "ok": true, "recovery_codes": ["a", "b"]}')).toBe(
      `{"code": "${REDACTED}", "ok": true, "recovery_codes": "${REDACTED}"}`,
    );
    expect(redactText('username=ann&password=hunter2&x=1')).toBe(`username=ann&password=${REDACTED}&x=1`);
    expect(redactText('token was Bearer abc.def')).toBe(`token was Bearer ${REDACTED}`);
  });
});

describe('properties', () => {
  it('a secret placed in any secret-named field never survives redactJson or redactText', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SECRET_NAMES), secretValue, fc.boolean(), (name, secret, nested) => {
        const doc = nested ? { Name: 'n', inner: [{ [name]: secret }] } : { [name]: secret, Email: 'e@x.y' };
        const json = JSON.stringify(doc);
        const escaped = JSON.stringify(secret).slice(1, -1);
        expect(JSON.stringify(redactJson(doc))).not.toContain(escaped);
        // The same JSON as text, whole or cut short just before the closing quote (as
        // a malformed answer or a truncated trace would be).
        const cut = json.slice(0, json.indexOf(`"${escaped}"`) + escaped.length + 1);
        expect(cut).toContain(escaped);
        for (const text of [json, cut]) expect(redactText(text)).not.toContain(escaped);
      }),
      { numRuns: 300 },
    );
  });
});

describe('redactUserInfo', () => {
  it.each([
    ['https://user:pw@host/x', 'https://[redacted]@host/x'],
    ['http://tok@127.0.0.1:3/', 'http://[redacted]@127.0.0.1:3/'],
    ['user:pw@host', '[redacted]@host'],
    ['https://a:b@c and https://d:e@f', 'https://[redacted]@c and https://[redacted]@f'],
    ['https://u:p@exa mple.com', 'https://[redacted]@exa mple.com'],
  ])('%s -> %s', (text, shown) => {
    expect(redactUserInfo(text)).toBe(shown);
  });

  it.each(['https://host/a@b', 'a@example.com', 'https://acme.example.com', 'write to ops@example.com'])('leaves %s alone', (text) => {
    expect(redactUserInfo(text)).toBe(text);
  });
});
