// Placeholder until the credential stores land.
import type { Globals, Io } from '../context.js';
import type { CredentialStore } from './credential-types.js';

export async function openCredentialStore(_io: Io, _globals: Globals): Promise<CredentialStore> {
  throw new Error('credentials: not built yet');
}
