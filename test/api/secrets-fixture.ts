// Secret field names and secret-looking values for the redaction tests.
import fc from 'fast-check';

export const SECRET_NAMES = [
  'password',
  'Password',
  'code',
  'recovery_code',
  'recovery_codes',
  'access_token',
  'challenge_token',
  'enrollment_token',
  'secret',
  'otpauth_uri',
  'qr_code_png_base64',
  'PaymentToken',
  'OneTimeToken',
  'PaymentClientSecret',
  'CustomerToken',
  'SetupIntent',
  'CaptchaToken',
  'token',
  'refresh_token',
  'ChatOAuthRefreshToken',
  'api_key',
  'X-Api-Key',
];

/** Secret-looking values: printable, long enough and varied enough to be unique. */
export const secretValue = fc
  .string({ minLength: 12, maxLength: 40, unit: fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789-_.~+/=:"\\ ') })
  .filter((s) => new Set(s).size >= 6 && s.trim() === s);
