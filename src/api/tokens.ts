// Token issuance and two-factor login (SERVICE-API.md §4 "Tokens and two-factor login",
// §5, D7–D12, D31): one typed function per endpoint over the HTTP core. These calls
// carry no credential: the login client is opened with `credential: null`.

import type { HttpClient } from './http-types.js';
import { BoError } from '../errors.js';

export type Mechanism = 'Email' | 'Totp';

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
}

export interface Challenge {
  challenge_token: string;
  mechanism: Mechanism;
  /** Where an Email code went (D12); null on a Totp challenge (D31). */
  masked_destination: string | null;
  expires_in: number;
  available_mechanisms: Mechanism[];
  recovery_codes_available: boolean;
}

export interface EnrollmentDemand {
  /** Sent back as `enrollment_token` to begin and confirm (§4). */
  challenge_token: string;
  expires_in: number;
}

/** POST /tokens: 200 token, or 202 challenge, or 202 enrollment demand. */
export type SignInAnswer =
  | { kind: 'token'; token: TokenResponse }
  | { kind: 'challenge'; challenge: Challenge }
  | { kind: 'enroll'; enrollment: EnrollmentDemand };

export interface TotpEnrollment {
  challenge_token: string;
  secret: string;
  otpauth_uri: string;
  qr_code_png_base64: string;
  expires_in: number;
}

export interface EmailEnrollment {
  challenge_token: string;
  mechanism: Mechanism;
  masked_destination: string | null;
  expires_in: number;
}

export interface ConfirmResponse extends TokenResponse {
  confirmed: boolean;
  /** Returned once, never again (§4). */
  recovery_codes: string[];
}

/** What the login flow needs from the API; tests may wrap it, the flow never sees HTTP. */
export interface TokensApi {
  signIn(username: string, password: string): Promise<SignInAnswer>;
  verifyCode(challengeToken: string, code: string): Promise<TokenResponse>;
  resend(challengeToken: string): Promise<Challenge>;
  switchMechanism(challengeToken: string, mechanism: Mechanism): Promise<Challenge>;
  useRecoveryCode(challengeToken: string, recoveryCode: string): Promise<TokenResponse>;
  beginTotp(enrollmentToken: string): Promise<TotpEnrollment>;
  confirmTotp(enrollmentToken: string, challengeToken: string, code: string): Promise<ConfirmResponse>;
  beginEmail(enrollmentToken: string): Promise<EmailEnrollment>;
  confirmEmail(enrollmentToken: string, challengeToken: string, code: string): Promise<ConfirmResponse>;
}

/** D29: mechanisms are `Email`/`Totp` on the wire; a real server may use another case. */
export function toMechanism(value: unknown): Mechanism {
  return String(value).toLowerCase() === 'email' ? 'Email' : 'Totp';
}

function record(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function challengeOf(body: unknown): Challenge {
  const b = record(body);
  const available = Array.isArray(b.available_mechanisms) ? b.available_mechanisms.map(toMechanism) : [];
  const mechanism = toMechanism(b.mechanism);
  return {
    challenge_token: String(b.challenge_token ?? ''),
    mechanism,
    masked_destination: typeof b.masked_destination === 'string' ? b.masked_destination : null,
    expires_in: Number(b.expires_in ?? 600),
    available_mechanisms: available.length > 0 ? available : [mechanism],
    recovery_codes_available: b.recovery_codes_available === true,
  };
}

function tokenOf(body: unknown): TokenResponse {
  const b = record(body);
  if (typeof b.access_token !== 'string' || b.access_token === '') {
    throw new BoError('the server answered without an access_token', { code: 'unexpected' });
  }
  return { access_token: b.access_token, token_type: String(b.token_type ?? 'Bearer'), expires_in: Number(b.expires_in ?? 0) };
}

function confirmOf(body: unknown): ConfirmResponse {
  const b = record(body);
  const codes = Array.isArray(b.recovery_codes) ? b.recovery_codes.map(String) : [];
  return { ...tokenOf(body), confirmed: b.confirmed !== false, recovery_codes: codes };
}

/**
 * No retries here (maxRetries 0): the login flow answers a 429 itself, with a countdown
 * for a person or exit 5 for a script (D10), and must see it at once.
 */
export function tokensApi(http: HttpClient, signal?: AbortSignal): TokensApi {
  const send = (path: string, body: Record<string, unknown>) =>
    http.request({ method: 'POST', path, body, anonymous: true, signal, maxRetries: 0, secretAnswer: true });
  const post = async (path: string, body: Record<string, unknown>) => (await send(path, body)).body;
  return {
    async signIn(username, password) {
      const res = await send('/tokens', { username, password });
      const b = record(res.body);
      if (b.two_factor_enrollment_required === true) {
        return {
          kind: 'enroll',
          enrollment: { challenge_token: String(b.challenge_token ?? ''), expires_in: Number(b.expires_in ?? 600) },
        };
      }
      if (b.two_factor_required === true || (res.status === 202 && typeof b.challenge_token === 'string')) {
        return { kind: 'challenge', challenge: challengeOf(b) };
      }
      return { kind: 'token', token: tokenOf(b) };
    },
    verifyCode: async (challenge_token, code) => tokenOf(await post('/tokens/two-factor', { challenge_token, code })),
    resend: async (challenge_token) => challengeOf(await post('/tokens/two-factor/resend', { challenge_token })),
    switchMechanism: async (challenge_token, mechanism) =>
      challengeOf(await post('/tokens/two-factor/switch-mechanism', { challenge_token, mechanism })),
    useRecoveryCode: async (challenge_token, recovery_code) =>
      tokenOf(await post('/tokens/two-factor/recovery', { challenge_token, recovery_code })),
    async beginTotp(enrollment_token) {
      const b = record(await post('/tokens/two-factor/enroll/totp/begin', { enrollment_token }));
      return {
        challenge_token: String(b.challenge_token ?? ''),
        secret: String(b.secret ?? ''),
        otpauth_uri: String(b.otpauth_uri ?? ''),
        qr_code_png_base64: String(b.qr_code_png_base64 ?? ''),
        expires_in: Number(b.expires_in ?? 600),
      };
    },
    confirmTotp: async (enrollment_token, challenge_token, code) =>
      confirmOf(await post('/tokens/two-factor/enroll/totp/confirm', { enrollment_token, challenge_token, code })),
    async beginEmail(enrollment_token) {
      const c = challengeOf(await post('/tokens/two-factor/enroll/email/begin', { enrollment_token }));
      return { challenge_token: c.challenge_token, mechanism: 'Email', masked_destination: c.masked_destination, expires_in: c.expires_in };
    },
    confirmEmail: async (enrollment_token, challenge_token, code) =>
      confirmOf(await post('/tokens/two-factor/enroll/email/confirm', { enrollment_token, challenge_token, code })),
  };
}
