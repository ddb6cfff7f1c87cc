// For tests against a real Secret Service (gnome-keyring). They run under
// `bash .ci/keyring.sh npx vitest run`, which starts a private D-Bus session and an
// unlocked keyring; without it they fail (never skip) and say how to run them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment a `bo` run needs to reach the session's Secret Service. */
export function keyringEnv(): Record<string, string> {
  const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
  if (!bus) {
    throw new Error(
      'keychain tests need a Secret Service: run them under `bash .ci/keyring.sh npx vitest run <files>` ' +
        '(needs the Debian packages dbus, gnome-keyring and libsecret-tools)',
    );
  }
  return { DBUS_SESSION_BUS_ADDRESS: bus, ...(process.env.XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR } : {}) };
}

let counter = 0;
/** A profile name no other test or run uses, so parallel runs never collide. */
export function uniqueProfile(prefix = 't'): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;
}

/** The secret stored for service "bo" and this profile, read with secret-tool; null when absent. */
export function secretToolLookup(profile: string): string | null {
  try {
    return execFileSync('secret-tool', ['lookup', 'service', 'bo', 'username', profile], { encoding: 'utf8' });
  } catch (err) {
    if ((err as { status?: number }).status === 1) return null;
    throw err;
  }
}

/** How many items match service "bo" and this profile. */
export function secretToolCount(profile: string): number {
  const out = execFileSync('secret-tool', ['search', '--all', 'service', 'bo', 'username', profile], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return (out.match(/^\[\//gm) ?? []).length;
}

/** Writes an item as another program would, with secret-tool. */
export function secretToolStore(profile: string, secret: string): void {
  execFileSync('secret-tool', ['store', '--label', 'test item', 'service', 'bo', 'username', profile], { input: secret });
}

export interface FakeBus {
  /** The socket's path. */
  path: string;
  /** As DBUS_SESSION_BUS_ADDRESS. */
  address: string;
  close(): void;
}

/**
 * A Unix socket posing as the session bus: `respond` handles each connection. By
 * default it accepts and never answers (a hung bus).
 */
export async function startFakeBus(respond: (socket: Socket) => void = (socket) => socket.on('data', () => undefined)): Promise<FakeBus> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-fake-bus-'));
  const path = join(dir, 'bus');
  const server = createServer(respond);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    address: `unix:path=${path}`,
    close: () => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
