// What `bo sandbox serve` tells the person at the terminal (stderr): where the state
// lives, the API key as a ready-to-paste `export BO_BASE_URL=… BO_API_KEY=…
// BO_API_SECRET=…`, the demo logins, and each email as it is "sent".

import type { Context } from '../context.js';
import { neutralise } from '../api/neutralise.js';
import { fixtureUsersOf } from './auth-slice.js';
import type { Mail } from './state.js';
import type { Store } from './store.js';

/** Read from the store, not over HTTP: under --tls-cert the server's certificate need not be trusted here. */
export async function printServeBanner(ctx: Context, url: string, file: string | undefined, store: Store, scheme: string): Promise<void> {
  const fixtures = await store.read((db) => ({
    apiKey: { scheme, key: db.state.apiKey.key, secret: db.state.apiKey.secret },
    users: fixtureUsersOf(db.state.auth),
  }));
  const lines = [
    `sandbox listening on ${url} (API under ${url}/api/v1)`,
    `state: ${file ?? 'in memory'}`,
    'use it from another shell (its API key, as environment variables):',
    `  export BO_BASE_URL=${url} BO_API_KEY=${fixtures.apiKey.key} BO_API_SECRET=${fixtures.apiKey.secret}`,
    // A key sent with another scheme word is refused: the profile must use this one.
    ...(scheme === 'bo' ? [] : [`  bo config set api-key-scheme ${scheme}`]),
    'demo logins:',
    ...fixtures.users.map((u) => `  ${u.kind.padEnd(7)} ${u.username}  password ${u.password}${u.totpSecret ? `  TOTP secret ${u.totpSecret}` : ''}`),
    `try: bo --base-url ${url} login --username ${fixtures.users[0]?.username ?? ''}`,
    'emails appear below as they are sent; Ctrl-C stops the sandbox',
  ];
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
}

export function formatEmail(mail: Mail): string {
  const code = mail.code ? `  code ${mail.code}` : '';
  return `email to ${neutralise(mail.to)}: ${neutralise(mail.subject)}${code}\n`;
}
