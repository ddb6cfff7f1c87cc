// What the server answers to a login is not trusted: these are the checks a value
// passes before it is stored (the token), passed on (the authenticator secret, in
// BO_TOTP_SECRET), written to a file (the QR code PNG) or shown (the expiry). A value
// that fails is refused with exit 1 and nothing is kept. Recovery codes are neutralised
// where they are kept (secrets-display.ts), since refusing them would lose them.

import { BoError } from '../../errors.js';
import { decodeJwt, expiryOf } from '../jwt-claims.js';

/** The longest access token kept: a JWT with generous claims is 1-2 KiB. */
export const MAX_TOKEN_LENGTH = 16 * 1024;
/** The longest authenticator secret used: 160 bits is 32 base32 characters. */
export const MAX_SECRET_LENGTH = 256;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The token as it will be sent in an Authorization header: printable ASCII without
 * spaces (a header breaks on CR/LF, and a token has no spaces), at most 16 KiB.
 */
export function usableToken(token: string): string {
  const refuse = (why: string) =>
    new BoError(`the server's access token is not usable: ${why}`, { hint: 'nothing was stored; the server answered something that is not a token' });
  if (token.length > MAX_TOKEN_LENGTH) {
    throw refuse(`it is ${token.length} characters long, more than the ${MAX_TOKEN_LENGTH} (16 KiB) bo accepts`);
  }
  if (!/^[\x21-\x7e]+$/.test(token)) throw refuse('it holds a space, a line break or a character that is not printable ASCII');
  return token;
}

/**
 * The one expiry of a token: its own `exp` claim when it is a JWT that has one (what
 * `bo auth status` shows and the server enforces), else `expires_in` from now, else
 * unknown. Values that make no date (NaN, negative, past year 275760) are unknown.
 */
export function tokenExpiry(token: string, expiresIn: number, now: Date): Date | undefined {
  const exp = expiryOf(decodeJwt(token));
  if (exp) return exp;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) return undefined;
  const at = new Date(now.getTime() + expiresIn * 1000);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** An authenticator secret: base32 (RFC 4648: A-Z and 2-7, any case), optional = padding. */
export function usableTotpSecret(secret: string): string {
  const padded = secret.includes('=');
  const ok =
    secret.length <= MAX_SECRET_LENGTH &&
    /^[A-Za-z2-7]+={0,6}$/.test(secret) &&
    (!padded || secret.length % 8 === 0);
  if (!ok) {
    throw new BoError("the server's authenticator secret is not usable: it is not base32 (A-Z and 2-7, optional = padding)", {
      hint: 'nothing was shown or passed to --code-command, and the enrollment was not confirmed',
    });
  }
  return secret;
}

/** The QR code's bytes, when they are a PNG image (they start with its signature). */
export function pngBytes(base64: string, loginCommand = 'bo login'): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length <= PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    throw new BoError("--qr-png: the server's QR code is not a PNG image; nothing was written", {
      hint: `run \`${loginCommand}\` again without --qr-png: the QR code is also drawn on a terminal`,
    });
  }
  return bytes;
}
