// The bridge to the two-factor engine (src/sandbox/auth): the store keeps its state
// opaque; this file is the one place that knows the engine's functions.

export interface DemoLogin {
  username: string;
  password: string;
  kind: 'plain' | 'totp' | 'email' | 'both' | 'enroll';
  personUid: string;
  accountUid: string;
  subscriptionUid?: string;
  planUid?: string;
}

export interface FixtureUser {
  username: string;
  password: string;
  kind: string;
  totpSecret: string | null;
  recoveryCodes: string[];
}

/** Placeholder until the engine lands: remembers the logins. */
export function createAuthSlice(users: DemoLogin[], _seed: number): unknown {
  return { users };
}

export function fixtureUsersOf(auth: unknown): FixtureUser[] {
  const users = (auth as { users?: DemoLogin[] } | null)?.users ?? [];
  return users.map((u) => ({ username: u.username, password: u.password, kind: u.kind, totpSecret: null, recoveryCodes: [] }));
}

export interface MailOut {
  to: string;
  subject: string;
  text: string;
  code: string | null;
}

export interface EngineEnv {
  now(): Date;
  baseUrl: string;
  clientKey: string;
  sendEmail(mail: MailOut): void;
}

export function handleTokensOf(_auth: unknown, _env: EngineEnv, _subpath: string, _body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  return { status: 404, body: { error: 'not_found', error_description: 'token issuance is not available yet' } };
}

export function verifyBearer(_auth: unknown, _token: string, _env: Pick<EngineEnv, 'now' | 'baseUrl'>): { personUid: string; accountUid: string } | null {
  return null;
}

export function jwksOf(_auth: unknown): { keys: object[] } {
  return { keys: [] };
}
