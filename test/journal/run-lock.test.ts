// The journal run's lock (src/journal/run-lock.ts), in the test process: a lock whose
// process is gone, or whose pid names another process now (started after the lock was
// written), or that was written before this boot, is taken over and says from whom; a
// lock of a live holder never is; a lock of the older format (a pid alone) is judged by
// its pid; a take-over whose maker died half way is finished by the next one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { heldMessage, liveHolder, startTimeOf, takeRunLock, type HeldBy, type RunLock } from '../../src/journal/run-lock.js';

const ID = '20261128T050347-c3x7f3';
const linux = existsSync('/proc/self/stat');
const boot = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const f of cleanup.splice(0)) f();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-run-lock-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A process id that names no process: one that has ended. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

/** A live process other than this one, ended after the test. */
function liveProcess(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  cleanup.push(() => child.kill('SIGKILL'));
  return child;
}

const isHeld = (r: RunLock | HeldBy): r is RunLock => 'release' in r;

describe('the lock of a journal run', () => {
  it('is made when there is none, and then held against another taker; let go, it can be taken again', () => {
    const dir = folder();
    const first = takeRunLock(dir, ID);
    expect(isHeld(first) && first.tookOver).toBe(undefined);
    const second = takeRunLock(dir, ID);
    expect(isHeld(second)).toBe(false);
    expect((second as HeldBy).holder.pid).toBe(process.pid);
    expect(liveHolder(dir, ID)?.pid).toBe(process.pid);
    (first as RunLock).release();
    expect(liveHolder(dir, ID)).toBe(undefined);
    const third = takeRunLock(dir, ID);
    expect(isHeld(third)).toBe(true);
    (third as RunLock).release();
    // Nothing of the lock is left behind: no draft, no claim.
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a lock whose process is gone is taken over, in either format, and says whose it was', () => {
    const dir = folder();
    for (const format of ['old', 'new'] as const) {
      const pid = deadPid();
      writeFileSync(join(dir, `${ID}.lock`), format === 'old' ? `${pid}\n` : `${pid} 12345 ${linux ? boot() : '-'} abcdef12\n`);
      expect(liveHolder(dir, ID)).toBe(undefined);
      const taken = takeRunLock(dir, ID);
      expect(isHeld(taken), format).toBe(true);
      expect((taken as RunLock).tookOver?.pid).toBe(pid);
      expect(readFileSync(join(dir, `${ID}.lock`), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
      (taken as RunLock).release();
    }
  });

  it.runIf(linux)('a lock whose pid now names a process started after it was written is taken over; with its true start time it is held', () => {
    const dir = folder();
    const child = liveProcess();
    const pid = child.pid!;
    const start = startTimeOf(pid)!;
    expect(start).toMatch(/^\d+$/);
    // Written by a process of that pid that started earlier: not this one.
    writeFileSync(join(dir, `${ID}.lock`), `${pid} ${Number(start) - 100} ${boot()} abcdef12\n`);
    const taken = takeRunLock(dir, ID);
    expect(isHeld(taken)).toBe(true);
    expect((taken as RunLock).tookOver?.pid).toBe(pid);
    (taken as RunLock).release();

    writeFileSync(join(dir, `${ID}.lock`), `${pid} ${start} ${boot()} abcdef12\n`);
    const held = takeRunLock(dir, ID) as HeldBy;
    expect(held.holder.pid).toBe(pid);
    expect(held.byPidOnly).toBe(false);
    expect(heldMessage(ID, held)).toBe(`run ${ID} is still going (process ${pid}): stop it first, or wait for it`);
    expect(liveHolder(dir, ID)?.pid).toBe(pid);
  });

  it.runIf(linux)('a lock written before this boot is stale, whatever holds its pid now', () => {
    const dir = folder();
    const pid = liveProcess().pid!;
    writeFileSync(join(dir, `${ID}.lock`), `${pid} ${startTimeOf(pid)} 00000000-0000-0000-0000-000000000000 abcdef12\n`);
    const taken = takeRunLock(dir, ID);
    expect(isHeld(taken)).toBe(true);
    (taken as RunLock).release();
  });

  it('a lock of the older format whose pid is alive is held, and the refusal names the file to remove', () => {
    const dir = folder();
    const pid = liveProcess().pid!;
    writeFileSync(join(dir, `${ID}.lock`), `${pid}\n`);
    const held = takeRunLock(dir, ID) as HeldBy;
    expect(held.byPidOnly).toBe(true);
    expect(heldMessage(ID, held)).toBe(
      `run ${ID} is still going (process ${pid}): stop it first, or wait for it; if no bo is running it (its process id may name another program now), remove ${join(dir, `${ID}.lock`)}`,
    );
    expect(readFileSync(join(dir, `${ID}.lock`), 'utf8')).toBe(`${pid}\n`);
  });

  it('a take-over whose maker died between its two steps is finished by the next taker, and its claims cleared', () => {
    const dir = folder();
    const stale = deadPid();
    writeFileSync(join(dir, `${ID}.lock`), `${stale} 1 ${linux ? boot() : '-'} deadbeef1\n`);
    // The claim on that lock, made by a process that died before replacing it.
    writeFileSync(join(dir, `${ID}.lock.deadbeef1`), `${deadPid()} 2 ${linux ? boot() : '-'} deadbeef2\n`);
    const taken = takeRunLock(dir, ID);
    expect(isHeld(taken)).toBe(true);
    expect((taken as RunLock).tookOver?.pid).toBe(stale);
    expect(readdirSync(dir).sort()).toEqual([`${ID}.lock`]);
    (taken as RunLock).release();
  });

  it('a take-over under way (its maker alive) is never overtaken: the lock is reported held', () => {
    const dir = folder();
    writeFileSync(join(dir, `${ID}.lock`), `${deadPid()} 1 ${linux ? boot() : '-'} deadbeef1\n`);
    const maker = liveProcess().pid!;
    writeFileSync(join(dir, `${ID}.lock.deadbeef1`), `${maker} ${startTimeOf(maker) ?? '-'} ${linux ? boot() : '-'} deadbeef2\n`);
    const result = takeRunLock(dir, ID);
    expect(isHeld(result)).toBe(false);
    expect((result as HeldBy).holder.pid).toBe(maker);
    expect(readFileSync(join(dir, `${ID}.lock.deadbeef1`), 'utf8')).toMatch(new RegExp(`^${maker} `));
  });
});
