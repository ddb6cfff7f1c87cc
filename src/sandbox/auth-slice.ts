// The bridge to the two-factor engine (src/sandbox/auth): the store keeps the engine's
// state opaque; this file is the one place that calls the engine.

import { createAuthState, fixtureUsers, handleTokens, jwks, verifyAccessToken, type AuthEnv, type AuthState, type AuthUserSeed } from './auth/engine.js';

export type DemoLogin = AuthUserSeed;
export type EngineEnv = AuthEnv;

export interface FixtureUser {
  username: string;
  password: string;
  kind: string;
  totpSecret: string | null;
  recoveryCodes: string[];
}

export function createAuthSlice(users: DemoLogin[], seed: number): unknown {
  return createAuthState(users, seed);
}

export function fixtureUsersOf(auth: unknown): FixtureUser[] {
  return fixtureUsers(auth as AuthState);
}

/** Mutates `auth` in place (the caller passes the transaction's copy). */
export function handleTokensOf(auth: unknown, env: EngineEnv, subpath: string, body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  return handleTokens(auth as AuthState, env, subpath, body);
}

export function verifyBearer(auth: unknown, token: string, env: Pick<EngineEnv, 'now' | 'baseUrl'>): { personUid: string; accountUid: string } | null {
  return verifyAccessToken(auth as AuthState, token, env);
}

export function jwksOf(auth: unknown): { keys: object[] } {
  return jwks(auth as AuthState);
}
