// `bo login` against a server whose answers are hostile or broken (a scripted server):
// what it returns is checked before it is stored, passed to --code-command, written to
// a file or shown. A token that could not go in an Authorization header (CR/LF, spaces,
// non-ASCII, 10 MB) is exit 1 with nothing stored; a secret that is not base32 never
// reaches BO_TOTP_SECRET or the screen; recovery codes are neutralised; --qr-png writes
// only a PNG; the expiry shown and stored is the token's own `exp`.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boLogin, type LoginSandbox } from '../auth/login-harness.js';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { makeKey, signJwt } from '../helpers/sign-jwt.js';

let server: FaultServer;
let dir: string;
beforeEach(async () => {
  server = await startFaultServer();
  dir = mkdtempSync(join(tmpdir(), 'bo-login-hostile-'));
});
afterEach(() => server.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR fake image body')]);
const SECRET = 'JBSWY3DPEHPK3PXP';
const paths = () => server.requests.map((r) => r.url);

/** `bo login` from a script against the scripted server, keeping the token in the 0600 file. */
async function login(extra: string[] = []) {
  const cfg = tempConfig();
  const r = await boLogin({ url: server.url } as LoginSandbox, ['--insecure-storage', '--username', 'ada@example.com', '--password-stdin', ...extra], {
    env: cfg.env,
    stdin: 'pw\n',
    realStore: true,
  });
  const stored = existsSync(cfg.credentialsFile) ? cfg.readJson(cfg.credentialsFile).profiles.default : undefined;
  return { ...r, cfg, stored };
}

/**
 * A forced TOTP enrollment: demand, begin (with `begin` fields), and confirm (with
 * `confirm` fields) unless `confirm` is null: a login refused before it confirms.
 */
function scriptEnrollment(begin: Record<string, unknown>, confirm: Record<string, unknown> | null = {}) {
  server.script(
    reply.json(202, { two_factor_enrollment_required: true, challenge_token: 'enr_1', expires_in: 600 }),
    reply.json(200, {
      challenge_token: 'ch_1',
      secret: SECRET,
      otpauth_uri: `otpauth://totp/Acme:ada?secret=${SECRET}`,
      qr_code_png_base64: PNG.toString('base64'),
      expires_in: 600,
      ...begin,
    }),
  );
  if (confirm === null) return;
  server.script(
    reply.json(200, {
      access_token: 'tok_enrolled',
      token_type: 'Bearer',
      expires_in: 3600,
      confirmed: true,
      recovery_codes: ['aaaa-1111', 'bbbb-2222'],
      ...confirm,
    }),
  );
}

/** A --code-command that writes the BO_TOTP_SECRET it saw to a file, then prints a code. */
function recordingCommand() {
  const seen = join(dir, 'seen-secret');
  return { seen, command: `printf '%s' "$BO_TOTP_SECRET" > '${seen}'; echo 123456` };
}

describe('bo login: the access token is checked before it is stored', () => {
  it.each([
    ['a CR/LF (header injection)', 'tok_a\r\nX-Injected: 1', 'it holds a space, a line break or a character that is not printable ASCII'],
    ['a space', 'tok a', 'it holds a space, a line break or a character that is not printable ASCII'],
    ['an escape sequence', 'tok\u001b]0;owned\u0007', 'it holds a space, a line break or a character that is not printable ASCII'],
    ['non-ASCII', 'tök', 'it holds a space, a line break or a character that is not printable ASCII'],
    ['10 MB', 'a'.repeat(10 * 1024 * 1024), 'it is 10485760 characters long, more than the 16384 (16 KiB) bo accepts'],
  ])('a token with %s: exit 1, nothing stored', async (_name, token, why) => {
    server.script(reply.json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 }));
    const r = await login();
    expect(r.stderr).toBe(
      `error: the server's access token is not usable: ${why}\n` +
        'hint: nothing was stored; the server answered something that is not a token\n',
    );
    expect(r.code).toBe(1);
    expect(r.stored).toBeUndefined();
    expect(existsSync(r.cfg.credentialsFile)).toBe(false);
    // The profile did not take the server as its base URL either.
    expect(existsSync(r.cfg.configFile)).toBe(false);
  });

  it('a token of printable ASCII up to 16 KiB is stored as it came', async () => {
    const token = `tok_${'x'.repeat(16 * 1024 - 4)}`;
    server.script(reply.json(200, { access_token: token, token_type: 'Bearer', expires_in: 3 * 24 * 3600 }));
    const r = await login();
    expect(r.code).toBe(0);
    expect(r.stored).toMatchObject({ kind: 'token', token });
  });
});

describe('bo login: one expiry, the token’s', () => {
  it('a JWT with exp one hour away: login and bo auth status both show exp, not expires_in (a year)', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = signJwt({ sub: 'per_1', PersonUid: 'per_1', AccountUid: 'acc_1', iat: exp - 3600, exp }, makeKey('k1'));
    server.script(reply.json(200, { access_token: token, token_type: 'Bearer', expires_in: 31_536_000 }));
    const r = await login();
    expect(r.code).toBe(0);
    const iso = new Date(exp * 1000).toISOString();
    expect(r.stderr.split('\n')[0]).toBe(`Signed in as ada@example.com (127.0.0.1:${server.port}) until ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC.`);
    expect(r.stored).toMatchObject({ token, expiresAt: iso });
    const status = await runBo(['--json', 'auth', 'status'], { env: r.cfg.env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).expiresAt).toBe(iso);
  });

  it('a token that is not a JWT: expires_in from now', async () => {
    server.script(reply.json(200, { access_token: 'opaque_token', token_type: 'Bearer', expires_in: 30 * 24 * 3600 }));
    const before = Date.now();
    const r = await login();
    expect(r.code).toBe(0);
    const at = Date.parse(r.stored.expiresAt);
    expect(at).toBeGreaterThanOrEqual(before + 30 * 24 * 3600 * 1000);
    expect(r.stderr.split('\n')[0]).toBe(`Signed in as ada@example.com (127.0.0.1:${server.port}) until ${r.stored.expiresAt.slice(0, 10)}.`);
  });

  it.each([['none', undefined], ['a nonsense number', 1e300], ['a negative number', -5], ['text', 'soon']])(
    'no exp and expires_in %s: signed in, no expiry claimed or stored',
    async (_name, expiresIn) => {
      server.script(reply.json(200, { access_token: 'opaque_token', token_type: 'Bearer', expires_in: expiresIn }));
      const r = await login();
      expect(r.stderr.split('\n')[0]).toBe(`Signed in as ada@example.com (127.0.0.1:${server.port}).`);
      expect(r.code).toBe(0);
      expect(r.stored).toMatchObject({ token: 'opaque_token' });
      expect(r.stored.expiresAt).toBeUndefined();
    },
  );
});

describe('bo login: what enrollment hands out is checked', () => {
  it('a base32 secret (any case, padded) reaches --code-command as it came', async () => {
    const secret = 'jbswy3dpehpk3pxpMZXW6===';
    scriptEnrollment({ secret });
    const { seen, command } = recordingCommand();
    const codes = join(dir, 'codes.txt');
    const r = await login(['--enroll', 'totp', '--code-command', command, '--recovery-codes-file', codes]);
    expect(r.code).toBe(0);
    expect(readFileSync(seen, 'utf8')).toBe(secret);
  });

  it.each([
    ['an escape sequence', `${SECRET}\u001b]0;owned\u0007`],
    ['a letter outside base32', 'JBSWY3DPEHPK3PX1'],
    ['spaces', 'JBSW Y3DP EHPK 3PXP'],
    ['padding in the middle', 'JBSW=Y3DPEHPK3PX'],
    ['nothing', ''],
    ['4 KB', 'A'.repeat(4096)],
  ])('a secret with %s: exit 1 before it is shown or passed to --code-command', async (_name, secret) => {
    scriptEnrollment({ secret }, null);
    const { seen, command } = recordingCommand();
    const png = join(dir, 'qr.png');
    const r = await login(['--enroll', 'totp', '--code-command', command, '--recovery-codes-file', join(dir, 'codes.txt'), '--qr-png', png]);
    expect(r.stderr).toContain(
      "error: the server's authenticator secret is not usable: it is not base32 (A-Z and 2-7, optional = padding)\n",
    );
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('\u001b');
    expect(existsSync(seen)).toBe(false);
    expect(existsSync(png)).toBe(false);
    expect(paths()).toEqual(['/api/v1/tokens', '/api/v1/tokens/two-factor/enroll/totp/begin']);
    expect(r.stored).toBeUndefined();
  });

  it('recovery codes with OSC and CSI sequences are written neutralised to --recovery-codes-file', async () => {
    scriptEnrollment({}, {
      recovery_codes: [
        '\u001b]8;;https://evil.example/\u0007abcd-1111\u001b]8;;\u0007',
        '\u001b[2J\u001b[Hbcde-2222',
        'cdef-\u00073333',
        'defg-4444\nrm -rf ~',
        '\u001b]0;only a title\u0007',
      ],
    });
    const codes = join(dir, 'codes.txt');
    const r = await login(['--enroll', 'totp', '--code-command', 'echo 123456', '--recovery-codes-file', codes]);
    expect(r.code).toBe(0);
    expect(readFileSync(codes, 'utf8')).toBe('abcd-1111\nbcde-2222\ncdef-\\u00073333\ndefg-4444 rm -rf ~\n');
    expect(r.stderr).toContain(`Wrote 4 recovery codes to ${codes} (mode 0600).`);
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).not.toContain('\u0007');
  });

  it('--qr-png writes the PNG when the bytes are one', async () => {
    scriptEnrollment({});
    const png = join(dir, 'qr.png');
    const r = await login(['--enroll', 'totp', '--code-command', 'echo 123456', '--recovery-codes-file', join(dir, 'c.txt'), '--qr-png', png]);
    expect(r.code).toBe(0);
    expect(readFileSync(png)).toEqual(PNG);
  });

  it.each([
    ['an HTML page', Buffer.from('<html><script>alert(1)</script></html>').toString('base64')],
    ['a shell script', Buffer.from('#!/bin/sh\nrm -rf ~\n').toString('base64')],
    ['nothing', ''],
    ['the PNG signature alone', PNG.subarray(0, 8).toString('base64')],
  ])('--qr-png refuses %s: exit 1, nothing written, nothing confirmed', async (_name, base64) => {
    scriptEnrollment({ qr_code_png_base64: base64 }, null);
    const { seen, command } = recordingCommand();
    const png = join(dir, 'qr.png');
    const r = await login(['--enroll', 'totp', '--code-command', command, '--recovery-codes-file', join(dir, 'c.txt'), '--qr-png', png]);
    expect(r.stderr).toContain("error: --qr-png: the server's QR code is not a PNG image; nothing was written\n");
    expect(r.code).toBe(1);
    expect(existsSync(png)).toBe(false);
    expect(existsSync(seen)).toBe(false);
    expect(paths()).toEqual(['/api/v1/tokens', '/api/v1/tokens/two-factor/enroll/totp/begin']);
  });

  it('an unusable token in the confirm answer: the recovery codes are still kept, nothing stored, exit 1', async () => {
    scriptEnrollment({}, { access_token: 'tok\r\nbad' });
    const codes = join(dir, 'codes.txt');
    const r = await login(['--enroll', 'totp', '--code-command', 'echo 123456', '--recovery-codes-file', codes]);
    expect(r.code).toBe(1);
    expect(readFileSync(codes, 'utf8')).toBe('aaaa-1111\nbbbb-2222\n');
    expect(r.stderr).toContain("error: the server's access token is not usable");
    expect(r.stored).toBeUndefined();
  });
});
