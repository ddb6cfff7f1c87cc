// Reading bo's keychain item from the Secret Service in-process, over the session
// bus's Unix socket (src/auth/stores/dbus.ts), instead of in the keyring library's
// helper process (src/auth/stores/keychain.ts), which costs a Node start (~40 ms,
// measured) on every command that reads a stored credential.
//
// It asks what the library asks (keyring-rs's Secret Service store, pinned by
// @napi-rs/keyring): the items whose attributes are service = "bo" and username = the
// profile, in every collection. Only the plain case is answered here: no item, or one
// unlocked item whose secret is UTF-8. Everything else — no Unix session bus, no
// Secret Service, a locked item (the library would ask to unlock it), several items, a
// refused authentication, any answer not understood — is "defer": the caller runs the
// library in its helper as before, so those cases keep the library's behaviour and its
// messages. Writes (login, set-key, logout) always go through the library.
//
// The secret comes back in a "plain" session: unencrypted over the user's own Unix
// socket to the bus, which only this user's processes can reach — and those can ask
// the Secret Service for the item themselves.

import type { Socket } from 'node:net';
import { DbusConnection, unixBusPath, type DbusValue } from './dbus.js';
import type { Env } from '../../env.js';

/** The item's secret (null: no such item), or "defer" to the library. */
export type SecretServiceAnswer = { value: string | null } | 'defer';

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';

/** The socket to the session bus, or undefined when it is not a Unix socket (then: defer). */
export function sessionBusPath(env: Env): string | undefined {
  return process.platform === 'linux' || process.platform === 'freebsd' ? unixBusPath(env.DBUS_SESSION_BUS_ADDRESS) : undefined;
}

export interface SecretServiceRead {
  readonly answer: Promise<SecretServiceAnswer>;
  /** Closes the connection: the read ends as "defer" if it had not answered. */
  close(): void;
}

/** Starts the read over the socket at `busPath` (see sessionBusPath). */
export function readSecretService(busPath: string, service: string, account: string): SecretServiceRead {
  const { connect } = process.getBuiltinModule('node:net') as typeof import('node:net');
  const socket: Socket = connect(busPath);
  const bus = new DbusConnection(socket);
  const secrets = (path: string, iface: string, member: string, signature?: string, body?: DbusValue[]) =>
    bus.call({ destination: SECRETS, path, interface: `org.freedesktop.Secret.${iface}`, member, signature, body });

  const answer = (async (): Promise<SecretServiceAnswer> => {
    try {
      // Asked together: the search, and a session to carry the secret.
      const search = secrets(SERVICE_PATH, 'Service', 'SearchItems', 'a{ss}', [
        [
          ['service', service],
          ['username', account],
        ],
      ]);
      const session = secrets(SERVICE_PATH, 'Service', 'OpenSession', 'sv', ['plain', { variant: 's', value: '' }]);
      session.catch(() => undefined); // not needed when there is no item
      const [unlocked, locked] = (await search) as [string[], string[]];
      if (!Array.isArray(unlocked) || !Array.isArray(locked)) return 'defer';
      if (unlocked.length === 0 && locked.length === 0) return { value: null };
      if (locked.length > 0 || unlocked.length !== 1) return 'defer';
      const sessionPath = (await session)[1];
      if (typeof sessionPath !== 'string') return 'defer';
      const [secret] = (await secrets(unlocked[0]!, 'Item', 'GetSecret', 'o', [sessionPath])) as [DbusValue[]];
      const bytes = Array.isArray(secret) ? secret[2] : undefined;
      if (!(bytes instanceof Uint8Array)) return 'defer';
      // As the library: a secret that is not UTF-8 is its error, not ours to guess.
      return { value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      return 'defer'; // an error answer, a closed bus, bytes that are not D-Bus
    } finally {
      bus.close();
    }
  })();

  return {
    answer,
    close: () => bus.close(),
  };
}
