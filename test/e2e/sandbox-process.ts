// The sandbox the e2e login talks to, reached over loopback HTTP only.
import { startLoginSandbox, type LoginSandbox } from '../auth/login-harness.js';

export type E2eSandbox = LoginSandbox;

export async function startE2eSandbox(_root: string): Promise<E2eSandbox> {
  return startLoginSandbox();
}
