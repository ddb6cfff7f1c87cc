// Keychain faults made of real parts: a private D-Bus session bus (dbus-daemon with a
// config of our own) and gnome-keyring-daemon on it, started unlocked, started locked
// (its login keyring exists but no password is given), or frozen with SIGSTOP. With
// `activation`, the bus may start the system's D-Bus services (gcr-prompter for unlock
// prompts); without it, nothing but what we start is on the bus.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PrivateBus {
  address: string;
  /** The environment a process needs to use this bus and its keyring. */
  env: Record<string, string>;
  startKeyring(mode: 'unlocked' | 'locked'): Promise<void>;
  stopKeyring(): Promise<void>;
  /** SIGSTOP: the keyring owns its bus name but never answers. */
  freezeKeyring(): void;
  close(): Promise<void>;
}

const KEYRING_PASSWORD = 'bo-hardening-keyring';

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startPrivateBus(options: { activation: boolean }): Promise<PrivateBus> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-bus-'));
  const socket = join(dir, 'bus');
  const address = `unix:path=${socket}`;
  const data = join(dir, 'data');
  const runtime = join(dir, 'run');
  mkdirSync(data);
  mkdirSync(runtime, { mode: 0o700 });
  writeFileSync(
    join(dir, 'bus.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>${address}</listen>
  <auth>EXTERNAL</auth>
  ${options.activation ? '<standard_session_servicedirs/>' : ''}
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
`,
  );
  const env = { DBUS_SESSION_BUS_ADDRESS: address, XDG_DATA_HOME: data, XDG_RUNTIME_DIR: runtime };
  const daemonEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...env };
  const bus = spawn('dbus-daemon', ['--config-file', join(dir, 'bus.conf'), '--nofork'], { env: daemonEnv, stdio: 'ignore' });
  await until(() => existsSync(socket), 'the private bus');

  let keyring: ChildProcess | undefined;
  const secretsOwned = () => {
    try {
      return execFileSync('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus',
        'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'], { env: daemonEnv, encoding: 'utf8' }).includes('boolean true');
    } catch {
      return false;
    }
  };
  const stopKeyring = async () => {
    const k = keyring;
    keyring = undefined;
    if (!k || k.exitCode !== null) return;
    const exited = new Promise((r) => k.once('exit', r));
    k.kill('SIGCONT');
    k.kill('SIGTERM');
    await exited;
    await until(() => !secretsOwned(), 'the keyring to leave the bus');
  };
  return {
    address,
    env,
    async startKeyring(mode) {
      await stopKeyring();
      const args = ['--foreground', '--components=secrets', ...(mode === 'unlocked' ? ['--unlock'] : [])];
      keyring = spawn('gnome-keyring-daemon', args, { env: daemonEnv, stdio: ['pipe', 'ignore', 'ignore'] });
      // --unlock reads the password on stdin: the first start creates the login keyring with it.
      keyring.stdin!.end(mode === 'unlocked' ? KEYRING_PASSWORD : '');
      await until(secretsOwned, 'gnome-keyring on the private bus');
    },
    stopKeyring,
    freezeKeyring() {
      keyring?.kill('SIGSTOP');
    },
    async close() {
      await stopKeyring();
      const exited = new Promise((r) => bus.once('exit', r));
      bus.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
