// The one file lock (config, credentials, sandbox state): it waits for a live holder
// without spinning the CPU, takes over a lock whose holder was killed or is too old,
// gives up with a message naming the lock file, and refuses to be taken twice by one
// process (which would wait for itself).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock, withFileLockSync } from '../../src/files/locked-file.js';
import { holdLock } from '../helpers/hold-lock.js';

const root = mkdtempSync(join(tmpdir(), 'bo-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `file-${n++}.json`);
const opts = { what: 'the test file', staleMs: 10_000, waitMs: 5_000 };

/** A process that exits at once: its pid names no running process afterwards. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('withFileLockSync', () => {
  it('waits for a live holder, sleeping rather than spinning, then runs and releases', async () => {
    const file = fresh();
    await holdLock(file, 600);
    const wall = Date.now();
    const cpu = process.cpuUsage();
    const result = withFileLockSync(file, () => readFileSync(`${file}.lock`, 'utf8'), opts);
    const waited = Date.now() - wall;
    const used = process.cpuUsage(cpu);
    expect(waited).toBeGreaterThanOrEqual(400);
    expect(result).toMatch(new RegExp(`^${process.pid} \\d+ \\w+$`));
    // A busy loop would burn about as much CPU as it waited; sleeping burns almost none.
    expect((used.user + used.system) / 1000).toBeLessThan(waited * 0.25);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over at once a lock whose process was killed', async () => {
    const file = fresh();
    writeFileSync(`${file}.lock`, `${await deadPid()} ${Date.now()} x`);
    const started = Date.now();
    expect(withFileLockSync(file, () => 'ran', opts)).toBe('ran');
    // At once: not after waitMs (5 s, then an error) nor staleMs (10 s).
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over a lock older than staleMs even when its pid is alive (a reused pid)', () => {
    const file = fresh();
    writeFileSync(`${file}.lock`, `${process.ppid} ${Date.now() - 11_000} x`);
    expect(withFileLockSync(file, () => 'ran', opts)).toBe('ran');
  });

  it('takes over an empty lock file (a holder killed while creating it) once it is a few seconds old', () => {
    const file = fresh();
    writeFileSync(`${file}.lock`, '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(`${file}.lock`, old, old);
    expect(withFileLockSync(file, () => 'ran', opts)).toBe('ran');
  });

  it('gives up after waitMs with a message naming the lock file, and leaves the holder\'s lock', () => {
    const file = fresh();
    const holder = `${process.ppid} ${Date.now()} other`;
    writeFileSync(`${file}.lock`, holder);
    const started = Date.now();
    expect(() => withFileLockSync(file, () => 'ran', { ...opts, waitMs: 300 })).toThrow(
      `the test file is locked by another process (${file}.lock); if no other bo is running, delete that lock file`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(holder);
  });

  it('releases the lock when the work throws', () => {
    const file = fresh();
    expect(() => withFileLockSync(file, () => { throw new Error('boom'); }, opts)).toThrow('boom');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('refuses to take a lock this process already holds instead of waiting for itself', () => {
    const file = fresh();
    expect(() => withFileLockSync(file, () => withFileLockSync(file, () => 1, opts), opts)).toThrow(/already held by this process/);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('withFileLock (async, the sandbox)', () => {
  it('waits for a live holder without blocking the event loop', async () => {
    const file = fresh();
    await holdLock(file, 400);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    try {
      expect(await withFileLock(file, () => 'ran', opts)).toBe('ran');
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('takes over a lock whose process was killed', async () => {
    const file = fresh();
    writeFileSync(`${file}.lock`, `${await deadPid()} ${Date.now()} x`);
    expect(await withFileLock(file, () => 'ran', opts)).toBe('ran');
  });
});
