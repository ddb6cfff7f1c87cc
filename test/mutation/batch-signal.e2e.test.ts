// Signals and pipes in the middle of a batch, on the built binary: Ctrl-C (SIGINT),
// SIGTERM and SIGHUP stop sending, report what was in flight, print the summary and exit
// 128 + the signal; a stdin held open does not keep `bo` running after Ctrl-C; a stdout
// whose reader left stops the batch with exit 141, never 0. No record the server
// received is left unreported.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { mkfifoSync } from '../helpers/fifo.js';
import { runBin, runShell } from '../helpers/run-bin.js';
import { startBatchServer, type Answer, type BatchServer } from './batch-server.js';

let server: BatchServer | undefined;
afterEach(() => server?.close());

const uids = (n: number) => `${Array.from({ length: n }, (_, i) => `sa_${i + 1}`).join('\n')}\n`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Calls `then` once `ready()` holds (polled), e.g. to signal once the server got N requests. */
function when(ready: () => boolean, then: () => void): void {
  const poll = setInterval(() => {
    if (ready()) {
      clearInterval(poll);
      then();
    }
  }, 20);
}

// The first 10 answer at once, the others never: past the second given to what is in flight.
const tenThenSlow = (uid: string): Answer => (Number(uid.split('_')[1]) <= 10 ? { status: 200 } : { status: 200, hang: true });

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s mid-batch', (name, code) => {
  it(`exit ${code}: every request sent is reported, the summary is printed, the rest is never sent`, async () => {
    server = await startBatchServer(tenThenSlow);
    const s = server;
    const r = await runBin(['addons', 'expire', '-', '--concurrency', '4'], {
      env: testEnv(s),
      stdin: uids(500),
      onSpawn: (child) => when(() => s.received.length >= 14, () => child.kill(name)),
    });
    expect(r.code).toBe(code);
    const lines = r.stdout.trimEnd().split('\n');
    const reported = new Map(lines.map((l) => [l.split('\t')[0], l]));
    for (const uid of s.received) expect(reported.has(uid), `${uid} was sent but not reported`).toBe(true);
    expect(s.received.length).toBe(14);
    expect(lines.filter((l) => l.endsWith('\tok\texpired'))).toHaveLength(10);
    expect(lines.filter((l) => l.endsWith('\tinterrupted\tinterrupted: outcome unknown'))).toHaveLength(4);
    // sa_15 may have been read, waiting for a free slot: then it was not attempted.
    const summary = `10 expired, 4 interrupted \\(outcome unknown\\)(, 1 not attempted)? on ${escape(s.url)} \\(profile default\\); the rest of stdin was not read\n`;
    expect(r.stderr).toMatch(new RegExp(`^${summary}error: interrupted; .*\n$`));
  });
});

describe('Ctrl-C while stdin is held open and idle (a FIFO, tail -f … | bo … -)', () => {
  /**
   * `bo addons expire - <args>` reading a FIFO that bash holds open on fd 3 (inherited by
   * `bo`: a writer that never closes, as `tail -f` is), with two lines in it before `bo`
   * starts; SIGINT once both lines are on stdout. Killed after 15 s otherwise.
   */
  async function interruptIdle(args: string) {
    server = await startBatchServer(() => ({ status: 200 }));
    const fifo = mkfifoSync();
    let lines = 0;
    const r = await runShell(`exec 3<>"${fifo}"; printf 'sa_1\\nsa_2\\n' >&3; exec $BO addons expire - ${args} < "${fifo}"`, {
      env: testEnv(server),
      timeoutMs: 15_000,
      onSpawn: (child) => {
        child.stdout!.on('data', (d: Buffer) => (lines += String(d).split('\n').length - 1));
        when(() => lines >= 2, () => child.kill('SIGINT'));
      },
    });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    return { r, s: server };
  }

  it('a batch prints its summary and exits 130 at once, without waiting for stdin to close', async () => {
    const { r, s } = await interruptIdle('');
    expect(r.stdout).toBe('sa_1\tok\texpired\nsa_2\tok\texpired\n');
    expect(r.stderr).toBe(
      `2 expired on ${s.url} (profile default); the rest of stdin was not read\n` +
        'error: interrupted; nothing was in flight\n',
    );
  });

  it('so does --dry-run', async () => {
    const { r, s } = await interruptIdle('--dry-run');
    expect(r.stdout).toBe(`PUT ${s.url}/api/v1/billing/subscriptionaddons/sa_1/expire\nPUT ${s.url}/api/v1/billing/subscriptionaddons/sa_2/expire\n`);
    expect(r.stderr).toContain('2 request(s) would be sent; nothing was sent.\n');
    expect(s.received).toEqual([]);
  });
});

describe('a batch whose stdout closes (| head -1)', () => {
  it('stops sending, lets what is in flight finish, reports the counts on stderr and exits 141, though the first record failed', async () => {
    // sa_1 fails at once; every other record answers after a second, when `head` has left.
    server = await startBatchServer((uid) => (uid === 'sa_1' ? { status: 500 } : { status: 200, delayMs: 1000 }));
    const s = server;
    const file = `${tempConfig().root}/uids.txt`;
    writeFileSync(file, uids(20));
    const r = await runShell(`$BO addons expire - < "${file}" | head -1; echo "status \${PIPESTATUS[0]}"`, { env: testEnv(s) });
    const [first, status] = r.stdout.trimEnd().split('\n');
    expect(first).toMatch(/^sa_1\t500\t/);
    expect(status).toBe('status 141');
    expect(s.received.length).toBeLessThan(20);
    const m = new RegExp(
      `^(\\d+) expired, 1 failed(?:, (\\d+) not attempted)? on ${escape(s.url)} \\(profile default\\); the rest of stdin was not read\n` +
        'error: stdout was closed, so the batch stopped sending; .*\n$',
    ).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    // What was sent finished and is counted: every request the server received.
    expect(Number(m![1]) + 1).toBe(s.received.length);
  });
});

it('no Node warning on stderr with 16 requests in flight, 16 records waiting out a 429', async () => {
  // sa_1 is refused once for a second: every sender waits for the batch's pause.
  server = await startBatchServer((uid, attempt) => (uid === 'sa_1' && attempt === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, delayMs: 20 }));
  const s = server;
  for (const flags of [[], ['--verbose']]) {
    const r = await runBin([...flags, 'addons', 'expire', '-', '--concurrency', '16'], { env: testEnv(s), stdin: uids(200) });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/Warning|MaxListeners/);
  }
  expect(s.maxInFlight).toBe(16);
});
