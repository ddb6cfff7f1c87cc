// What the login tests need from a sandbox, reached over HTTP only (fixtures, outbox,
// clock), and a way to run `bo login` in-process against it with scripted answers and
// a memory credential store.

import { startTestSandbox } from '../helpers/sandbox.js';
import type { CredentialStore } from '../../src/auth/credential-types.js';
import type { Credential } from '../../src/api/http-types.js';
import type { Clock } from '../../src/context.js';
import { PassThrough } from 'node:stream';
import { run } from '../../src/main.js';
import type { RunBoOptions, RunBoResult } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';

export interface FixtureUser {
  username: string;
  password: string;
  kind: 'plain' | 'totp' | 'email' | 'both' | 'enroll';
  totpSecret: string | null;
  recoveryCodes: string[];
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  code: string | null;
  sentAt: string;
}

export interface LoginSandbox {
  url: string;
  users(): Promise<FixtureUser[]>;
  user(kind: FixtureUser['kind']): Promise<FixtureUser>;
  outbox(): Promise<OutboxMail[]>;
  /** The sandbox's idea of now (its clock moves with advance()). */
  now(): Promise<Date>;
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status}`);
  return (await res.json()) as T;
}

/** A fresh in-memory sandbox (test/helpers/sandbox.ts), seen through its HTTP endpoints. */
export async function startLoginSandbox(): Promise<LoginSandbox> {
  const sb = await startTestSandbox();
  return loginSandboxAt(sb.url, async () => {
    await sb.close();
  });
}

/** The same view of any sandbox by its URL (`bo sandbox serve` in the e2e test). */
export function loginSandboxAt(baseUrl: string, close?: () => Promise<void>): LoginSandbox {
  const clock = (advanceSeconds: number) =>
    getJson<{ now: string }>(`${baseUrl}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds }),
    });
  const sandbox: LoginSandbox = {
    url: baseUrl,
    users: async () => (await getJson<{ users: FixtureUser[] }>(`${baseUrl}/__sandbox/fixtures`)).users,
    user: async (kind) => {
      const u = (await sandbox.users()).find((x) => x.kind === kind);
      if (!u) throw new Error(`no ${kind} user in the fixtures`);
      return u;
    },
    outbox: () => getJson<OutboxMail[]>(`${baseUrl}/__sandbox/outbox`),
    now: async () => new Date((await clock(0)).now),
    advance: async (seconds) => {
      await clock(seconds);
    },
    close: close ?? (async () => undefined),
  };
  return sandbox;
}

/** The newest emailed code to `to`. */
export async function lastEmailedCode(sandbox: LoginSandbox, to: string): Promise<string> {
  const mail = (await sandbox.outbox()).filter((m) => m.to === to && m.code).at(-1);
  if (!mail?.code) throw new Error(`no code emailed to ${to}`);
  return mail.code;
}

export class MemoryStore implements CredentialStore {
  readonly backend = 'memory' as const;
  readonly location = 'memory';
  readonly saved = new Map<string, Credential>();
  async get(profile: string) {
    return this.saved.get(profile) ?? null;
  }
  async set(profile: string, credential: Credential) {
    this.saved.set(profile, credential);
  }
  async delete(profile: string) {
    return this.saved.delete(profile);
  }
}

/** A clock whose sleeps return at once and are recorded (countdowns without waiting). */
export function fastClock(): Clock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => new Date(),
    sleep: async (ms) => {
      slept.push(ms);
    },
  };
}

export interface LoginRun extends RunBoResult {
  store: MemoryStore;
}

/** What stderr showed so far, readable while `bo` still runs (a secret on screen). */
export interface Live {
  stderr: string;
}

/**
 * `bo login --base-url <sandbox> …args` in-process, as runBo does it, with a fresh
 * memory store and stderr readable live through `live`.
 */
export async function boLogin(
  sandbox: LoginSandbox,
  args: string[],
  options: RunBoOptions & { live?: Live; /** Use the profile's real backend, not a memory store. */ realStore?: boolean } = {},
): Promise<LoginRun> {
  const store = (options.credentials as MemoryStore | undefined) ?? new MemoryStore();
  const live = options.live ?? { stderr: '' };
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (live.stderr += d));
  stdin.end(options.stdin ?? '');
  const code = await run(['login', '--base-url', sandbox.url, ...args], {
    io: {
      stdin,
      stdout,
      stderr,
      stdinIsTTY: options.stdinIsTTY ?? false,
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: options.stderrIsTTY ?? false,
      ...(options.columns === undefined ? {} : { columns: options.columns }),
      // A config folder of its own: a login writes the profile's settings.
      env: { HOME: process.env.HOME, PATH: process.env.PATH, ...tempConfig().env, ...options.env },
    },
    prompter: options.prompter,
    credentials: options.realStore ? undefined : store,
    clock: options.clock ?? fastClock(),
    signal: options.signal,
  });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out, stderr: live.stderr, store };
}

/** A clock whose sleeps move the sandbox's clock instead of waiting (429 countdowns). */
export function sandboxClock(sandbox: LoginSandbox): Clock & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    now: () => new Date(),
    sleep: async (ms) => {
      slept.push(ms);
      await sandbox.advance(ms / 1000);
    },
  };
}

/** POST under /api/v1 straight to the sandbox, as another client would. */
export async function post(sandbox: LoginSandbox, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sandbox.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

/** The TOTP secret as `bo login` printed it ("Or enter this secret by hand: ABCD EFGH …"). */
export function secretOnScreen(stderr: string): string {
  const m = [...stderr.matchAll(/secret by hand: ([A-Z2-7 ]+)/g)].at(-1);
  if (!m) throw new Error(`no secret on screen:\n${stderr}`);
  return m[1]!.replace(/ /g, '');
}

/** The recovery codes inside the box `bo login` drew. */
export function recoveryCodesOnScreen(stderr: string): string[] {
  const box = stderr.slice(stderr.lastIndexOf('Recovery codes: save these now.'));
  return [...box.matchAll(/│ {3}(\S+)\s*│/g)].map((m) => m[1]!);
}

/** D12: the first character of the local part, then ****, then the domain. */
export function masked(email: string): string {
  const at = email.indexOf('@');
  return `${email[0]}****${email.slice(at)}`;
}
