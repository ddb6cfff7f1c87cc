// D10: 10 requests a minute per client on enroll/totp/confirm. A sliding window, kept
// in the state so that `POST /__sandbox/reset` clears it and the sandbox clock moves it.

import type { AuthState } from './state.js';

const LIMIT = 10;
const WINDOW_MS = 60_000;

/** Null when the request may go ahead (and is counted); otherwise the Retry-After in seconds. */
export function takeRateSlot(state: AuthState, clientKey: string, nowMs: number): number | null {
  const recent = (state.rateLimit[clientKey] ?? []).filter((t) => t > nowMs - WINDOW_MS && t <= nowMs);
  if (recent.length >= LIMIT) {
    state.rateLimit[clientKey] = recent;
    return Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - nowMs) / 1000));
  }
  recent.push(nowMs);
  state.rateLimit[clientKey] = recent;
  return null;
}
