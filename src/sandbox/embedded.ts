// The embedded sandbox behind `bo --sandbox` and the local `bo sandbox …` commands:
// the server in-process over the state file in the data folder, seeded on first use.
// Several `bo --sandbox` processes share that file safely (store.ts). `bo --sandbox`
// and the `bo sandbox …` admin commands hand it each request in this process
// (connectEmbeddedSandbox): no server, no socket.

import { DEFAULT_ACCOUNTS, DEFAULT_SEED, seedState } from './seed.js';
import type { SandboxAnswer, SandboxRequest } from './answer.js';
import { openInProcessSandbox } from './server.js';
import { defaultStatePath } from './state-path.js';
import { Store } from './store.js';

/**
 * `iss` of tokens the embedded sandbox issues (D5). It has no origin of its own, so the
 * issuer is pinned: a token from `bo --sandbox login` stays valid next run.
 */
export const EMBEDDED_ISSUER = 'http://sandbox.localhost';

export interface SandboxApiKey {
  scheme: string;
  key: string;
  secret: string;
}

function openState(env: Record<string, string | undefined>): Promise<Store> {
  return Store.file({
    file: defaultStatePath(env),
    params: { seed: DEFAULT_SEED, accounts: DEFAULT_ACCOUNTS },
    seeder: seedState,
  });
}

/** The sandbox's own API key (what `bo --sandbox` signs in with), without starting the server. */
export async function embeddedApiKey(env: Record<string, string | undefined>): Promise<SandboxApiKey> {
  const { key, secret } = await (await openState(env)).read((db) => db.state.apiKey);
  return { scheme: 'bo', key, secret };
}

/**
 * The base URL `bo --sandbox` requests name (its --verbose trace, --dry-run): loopback,
 * which the client's base-URL policy accepts for http, though no request to it ever
 * leaves the process.
 */
export const IN_PROCESS_URL = 'http://127.0.0.1';

export interface ConnectedSandbox {
  url: string;
  apiKey: SandboxApiKey;
  /** Answers a request in this process: the HTTP client's transport (src/api/http-attempt.ts directExchange). */
  answer(request: SandboxRequest): Promise<SandboxAnswer>;
  close(): Promise<void>;
}

/** `bo --sandbox`: the sandbox in this process, without a server or a socket. */
export async function connectEmbeddedSandbox(env: Record<string, string | undefined>): Promise<ConnectedSandbox> {
  const store = await openState(env);
  const sandbox = await openInProcessSandbox({ store, issuer: EMBEDDED_ISSUER, url: IN_PROCESS_URL });
  const { key, secret } = await store.read((db) => db.state.apiKey);
  return {
    url: sandbox.url,
    apiKey: { scheme: 'bo', key, secret },
    answer: (request) => sandbox.answer(request),
    close: () => sandbox.close(),
  };
}
