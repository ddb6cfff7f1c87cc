// The shape of the sandbox's token and two-factor state. Everything here is plain JSON
// (no Maps, classes or closures; times as epoch ms) because the sandbox store persists
// the whole state to disk between runs and restores it on `POST /__sandbox/reset`.

export type Mechanism = 'Totp' | 'Email';
export type UserKind = 'plain' | 'totp' | 'email' | 'both' | 'enroll';

export interface AuthUser {
  /** The person's email address; matched case-insensitively at login. */
  username: string;
  password: string;
  /** The kind the user was seeded as; kept after an enrollment so fixtures stay findable. */
  kind: UserKind;
  personUid: string;
  accountUid: string;
  subscriptionUid: string | null;
  planUid: string | null;
  /** Base32 TOTP secret once the user has TOTP (D11). */
  totpSecret: string | null;
  emailEnabled: boolean;
  /** The account requires 2FA, so a user with no method must enroll (§5.5). */
  enrollmentRequired: boolean;
  /** Unused recovery codes; each is removed when used (§4, single-use). */
  recoveryCodes: string[];
  /** The last TOTP time step accepted, so an accepted code is never accepted again (D8). */
  lastTotpStep: number | null;
}

/** One challenge token and what it asks for. Replaced by resend, switch or a new begin (D9). */
export interface Challenge {
  token: string;
  mechanism: Mechanism;
  issuedAt: number;
  /** The code emailed for this challenge; a resend replaces it. */
  emailCode: string | null;
  /** During TOTP enrollment: the secret shown by begin, enabled by confirm. */
  pendingSecret: string | null;
}

/**
 * One login attempt (a POST /tokens that answered 202) or one forced enrollment.
 * The attempt counter lives here, not on the challenge, so that it carries over
 * resends and switches (D8).
 */
export interface Flow {
  type: 'login' | 'enrollment';
  /** Lower-cased username of the user this flow belongs to. */
  user: string;
  attempts: number;
  /** A token was issued (login) or the enrollment token was used (enrollment). */
  finished: boolean;
  /** Enrollment only: the enrollment token and when it was issued (600 s, §5.6). */
  enrollmentToken: string | null;
  issuedAt: number;
  challenge: Challenge | null;
  /** Challenge tokens replaced by resend, switch or a second begin (D9, D31). */
  retired: string[];
  available: Mechanism[];
}

export interface AuthState {
  version: 1;
  seed: number;
  /** Counter for seeded derivations after the initial seed (enrollment secrets, codes). */
  derivations: number;
  /**
   * Made when the first token is signed, then stored with the state: an RSA-2048 key
   * costs ~300 ms, which a state that never signs (most `bo --sandbox` runs) never pays.
   */
  signingKey: { kid: string; privateKeyPem: string } | null;
  users: AuthUser[];
  flows: Flow[];
  /** D10 sliding window: client key → epoch ms of recent totp/confirm requests. */
  rateLimit: Record<string, number[]>;
}

export const CHALLENGE_LIFETIME_S = 600;
export const ACCESS_TOKEN_LIFETIME_S = 31_536_000;
export const MAX_ATTEMPTS = 5;

export function findUser(state: AuthState, username: string): AuthUser | undefined {
  const key = username.toLowerCase();
  return state.users.find((u) => u.username.toLowerCase() === key);
}

export function mechanismsOf(user: AuthUser): Mechanism[] {
  const list: Mechanism[] = [];
  if (user.totpSecret !== null) list.push('Totp');
  if (user.emailEnabled) list.push('Email');
  return list;
}
