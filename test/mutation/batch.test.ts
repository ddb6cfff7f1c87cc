// The batch mechanism of every mutation (`-` in place of the first Uid), through
// `bo addons expire -` against a recording server: input forms, malformed lines,
// outcomes and their exit codes, --fail-fast, 401 midway, 429 for the whole batch,
// Ctrl-C, --concurrency and one keep-alive pool, and 10,000 records in one process.
import { afterEach, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startBatchServer, type Answer, type BatchServer } from './batch-server.js';

let server: BatchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(rule: (uid: string, attempt: number) => Answer = () => ({ status: 200 })) {
  server = await startBatchServer(rule);
  return server;
}
const uids = (n: number, prefix = 'sa') => Array.from({ length: n }, (_, i) => `${prefix}_${i + 1}`);
const expire = (s: BatchServer, stdin: string, flags: string[] = [], extra: Parameters<typeof runBo>[1] = {}) =>
  runBo(['addons', 'expire', '-', ...flags], { env: testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }), stdin, ...extra });

describe('batches from stdin', () => {
  it('reads one Uid a line and JSON Lines records, skipping blank lines and # comments', async () => {
    const s = await serve();
    // Quantity: a field of the add-on's own record, not one of the verb's: ignored.
    const r = await expire(s, '# to expire\nsa_1\r\n\n   \n{"Uid":"sa_2","Quantity":3}\n  sa_3  \n# done');
    expect(r.code).toBe(0);
    expect([...s.received].sort()).toEqual(['sa_1', 'sa_2', 'sa_3']);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['sa_1\tok\texpired', 'sa_2\tok\texpired', 'sa_3\tok\texpired']);
    expect(r.stderr).toBe(`3 expired on ${s.url} (profile default)\n`);
    // one API key header on every request, nothing else sent
    expect(new Set(s.authorization)).toEqual(new Set(['bo k1:s1']));
    expect(s.bodies).toEqual(['', '', '']);
  });

  it('reports malformed lines with - and their line number, and sends nothing for them', async () => {
    const s = await serve();
    const r = await expire(s, 'sa_1\na b\n{"Uid": \n{"Name":"no uid"}\nx/y\nsa_2\n', ['--concurrency', '1']);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain('-\tinvalid\tline 2 must be a Uid without spaces, "/" or control characters, got "a b"');
    expect(lines).toContain('-\tinvalid\tline 3: not valid JSON');
    expect(lines).toContain('-\tinvalid\tline 4: the record has no "Uid" string');
    expect(lines.filter((l) => l.startsWith('-\tinvalid\tline 5 '))).toHaveLength(1);
    expect(s.received).toEqual(['sa_1', 'sa_2']);
    expect(r.stderr).toContain(`2 expired, 4 invalid on ${s.url} (profile default)\n`);
    expect(r.stderr).toContain('error: 4 of 6 record(s) failed\n');
  });

  it('mixed outcomes: exit 1 and a summary counting each kind', async () => {
    const s = await serve((uid) => (uid === 'sa_2' ? { status: 404 } : uid === 'sa_4' ? { status: 500 } : { status: 200 }));
    const r = await expire(s, uids(5).join('\n'));
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines).toContain('sa_2\t404\tnot found');
    expect(lines.find((l) => l.startsWith('sa_4\t500\t'))).toMatch(/refused sa_4/);
    expect(r.stderr).toContain(`3 expired, 1 not found, 1 failed on ${s.url} (profile default)\n`);
    expect(r.stderr).toMatch(/error: 2 of 5 record\(s\) failed\n$/);
  });

  it('--jsonl prints one {uid,line,ok,status,changed,reason,error} a line; --json one array of them', async () => {
    const s = await serve((uid) => (uid === 'sa_2' ? { status: 404 } : { status: 200 }));
    const r = await expire(s, 'sa_1\nsa_2\n', ['--jsonl', '--concurrency', '1']);
    expect(r.code).toBe(1);
    const records = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(records[0]).toEqual({ uid: 'sa_1', line: 1, ok: true, status: 200, changed: true, reason: null, error: null });
    // A refusal changed nothing (D32).
    expect(records[1]).toMatchObject({ uid: 'sa_2', line: 2, ok: false, status: 404, changed: false, reason: 'refused', error: { code: 'x', message: 'not found' } });
    const j = await expire(s, 'sa_1\nbad uid\n', ['--json', '--concurrency', '1']);
    const array = JSON.parse(j.stdout);
    expect(array).toHaveLength(2);
    // Outcomes come as they complete: the malformed line is reported without waiting.
    // A line that holds no Uid: uid null, and the line as it came.
    expect(array.find((o: { line: number }) => o.line === 2)).toEqual({
      uid: null,
      input: 'bad uid',
      line: 2,
      ok: false,
      status: null,
      changed: false,
      reason: 'not-sent',
      error: { code: 'invalid', message: 'line 2 must be a Uid without spaces, "/" or control characters, got "bad uid"' },
    });
  });

  it('prints ✔/✘ lines on a terminal', async () => {
    const s = await serve((uid) => (uid === 'sa_2' ? { status: 404 } : { status: 200 }));
    const r = await expire(s, 'sa_1\nsa_2\n', ['--no-color', '--concurrency', '1'], { stdoutIsTTY: true });
    expect(r.stdout).toBe('✔ Subscription add-on sa_1 expired\n✘ sa_2 not found\n');
  });

  it('shows progress on a terminal stderr, erased at the end; none with BO_NO_PROGRESS=1', async () => {
    const s = await serve();
    const r = await expire(s, 'sa_1\nsa_2\n', ['--concurrency', '1'], { stderrIsTTY: true });
    expect(r.stderr).toMatch(/^\r\u001b\[K1 done · [\d,]+\/s/);
    expect(r.stderr.endsWith(`\r\u001b[K2 expired on ${s.url} (profile default)\n`)).toBe(true);
    expect(r.stdout).toBe('sa_1\tok\texpired\nsa_2\tok\texpired\n');
    const quiet = await runBo(['addons', 'expire', '-'], { env: { ...testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }), BO_NO_PROGRESS: '1' }, stdin: 'sa_1\n', stderrIsTTY: true });
    expect(quiet.stderr).toBe(`1 expired on ${s.url} (profile default)\n`);
  });

  it('empty input is 0 records, exit 0', async () => {
    const s = await serve();
    const r = await expire(s, '\n# nothing\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`0 expired on ${s.url} (profile default)\n`);
    expect(s.received).toEqual([]);
  });

  it('--fail-fast stops at the first failure', async () => {
    const ff = await serve((uid) => (uid === 'sa_3' ? { status: 500 } : { status: 200 }));
    const f = await runBo(['addons', 'expire', '-', '--fail-fast', '--concurrency', '1'], { env: testEnv(ff, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }), stdin: uids(10).join('\n') });
    expect(f.code).toBe(1);
    expect(ff.received).toEqual(['sa_1', 'sa_2', 'sa_3']);
    // sa_4 was read while sa_3 was in flight; the rest of stdin is left unread.
    expect(f.stderr).toContain(`2 expired, 1 failed, 1 not attempted on ${ff.url} (profile default); the rest of stdin was not read\n`);
    expect(f.stderr).toContain('stopped at the first failure (--fail-fast)');
  });

  it('a 401 midway stops the batch at once, says what was not attempted and that stdin was left unread, exit 4', async () => {
    const s = await serve((uid) => (uid === 'sa_3' ? { status: 401, body: { error: 'unauthorized', error_description: 'bad key' } } : { status: 200 }));
    const r = await expire(s, uids(10).join('\n'), ['--concurrency', '1']);
    expect(r.code).toBe(4);
    expect(s.received).toEqual(['sa_1', 'sa_2', 'sa_3']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(r.stderr).toContain(`2 expired, 1 failed, 1 not attempted on ${s.url} (profile default); the rest of stdin was not read\n`);
    expect(r.stderr).toMatch(/error: batch stopped: .*401.*; 1 record\(s\) not attempted, the rest of stdin not read\n/);
  });

  it('a 429 with Retry-After pauses the whole batch, then the record is tried again', async () => {
    const s = await serve((uid, attempt) =>
      uid === 'sa_1' && attempt === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200, delayMs: 100 },
    );
    const r = await expire(s, uids(8).join('\n'), ['--concurrency', '4']);
    expect(r.code).toBe(0);
    expect(s.received.filter((u) => u === 'sa_1')).toHaveLength(2);
    const refusedAt = s.times[s.received.indexOf('sa_1')]!;
    // sa_2..sa_4 were already on their way; every request sent after them waited.
    const later = s.times.slice(4);
    expect(later.length).toBe(5);
    for (const t of later) expect(t - refusedAt).toBeGreaterThanOrEqual(950);
    expect(r.stderr).toBe(`8 expired on ${s.url} (profile default)\n`);
  });

  it('the summary counts add up to the records read: invalid lines past a stop are not lost, the rest of stdin is not read', async () => {
    const s = await serve((uid) => (uid === 'sa_1' ? { status: 401, body: { error: 'unauthorized', error_description: 'bad key' } } : { status: 200 }));
    // sa_2 is read while sa_1 is in flight; nothing after it is read.
    const r = await expire(s, 'sa_1\nsa_2\na b\n{"Uid": \nsa_5\nx y\nsa_7\n', ['--concurrency', '1']);
    expect(r.code).toBe(4);
    expect(s.received).toEqual(['sa_1']);
    expect(r.stdout).toBe('sa_1\t401\t401 Unauthorized: bad key\n');
    expect(r.stderr).toContain(`0 expired, 1 failed, 1 not attempted on ${s.url} (profile default); the rest of stdin was not read\n`);
    expect(r.stderr).toContain('; 1 record(s) not attempted, the rest of stdin not read\n');
    // Invalid lines read before the stop are reported and counted with the others.
    const t = await serve((uid) => (uid === 'sa_4' ? { status: 401 } : { status: 200 }));
    const r2 = await expire(t, 'sa_1\na b\n{"Uid": \nsa_4\nsa_5\nx y\n', ['--concurrency', '1']);
    expect(r2.code).toBe(4);
    const lines = r2.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('-\tinvalid\t'))).toHaveLength(2);
    // 1 + 1 + 2 + 1 = the five records read (x y never was).
    expect(r2.stderr).toContain(`1 expired, 2 invalid, 1 failed, 1 not attempted on ${t.url} (profile default); the rest of stdin was not read\n`);
  });

  it('a Retry-After over 60 s stops the batch at once with exit 5, as a single command: the record is refused, the rest not attempted', async () => {
    const s = await serve((uid) => (uid === 'sa_3' ? { status: 429, headers: { 'retry-after': '99999' }, body: { error: 'rate_limited', error_description: 'slow down' } } : { status: 200 }));
    const r = await expire(s, uids(10).join('\n'), ['--concurrency', '1']);
    expect(r.code).toBe(5);
    expect(s.received).toEqual(['sa_1', 'sa_2', 'sa_3']);
    expect(r.stdout.trimEnd().split('\n')).toEqual(['sa_1\tok\texpired', 'sa_2\tok\texpired', 'sa_3\t429\t429 Too Many Requests: slow down; retry in 1 d 3 h']);
    expect(r.stderr).toBe(
      `2 expired, 1 failed, 1 not attempted on ${s.url} (profile default); the rest of stdin was not read\n` +
        'error: batch stopped: 429 Too Many Requests: slow down; retry in 1 d 3 h; 1 record(s) not attempted, the rest of stdin not read\n',
    );
    const single = await serve(() => ({ status: 429, headers: { 'retry-after': '99999' }, body: { error: 'rate_limited', error_description: 'slow down' } }));
    const one = await runBo(['addons', 'expire', 'sa_1'], { env: testEnv(single, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }) });
    expect(one.code).toBe(5);
    expect(single.received).toEqual(['sa_1']);
    expect(one.stderr).toBe('error: 429 Too Many Requests: slow down; retry in 1 d 3 h\n');
  });

  it('a record refused with 429 is sent at most --max-retries + 1 times, then reported as refused', async () => {
    const s = await serve((uid) => (uid === 'sa_2' ? { status: 429, headers: { 'retry-after': '0' } } : { status: 200 }));
    const r = await expire(s, uids(4).join('\n'), ['--max-retries', '2', '--concurrency', '1']);
    expect(r.code).toBe(1);
    expect(s.received.filter((u) => u === 'sa_2')).toHaveLength(3);
    expect(r.stdout).toContain('sa_2\t429\t');
    expect(r.stderr).toContain(`3 expired, 1 failed on ${s.url} (profile default)\n`);
  });

  it('Ctrl-C during a 429 pause: the refused record is reported as refused, not of unknown outcome', async () => {
    // sa_1 is refused for 30 s; sa_2 goes through while it waits.
    const s = await serve((uid) => (uid === 'sa_1' ? { status: 429, headers: { 'retry-after': '30' } } : { status: 200 }));
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (s.received.includes('sa_1') && s.received.includes('sa_2')) controller.abort();
    }, 10);
    const r = await expire(s, uids(6).join('\n'), ['--jsonl', '--concurrency', '2'], { signal: controller.signal });
    clearInterval(timer);
    expect(r.code).toBe(130);
    const reported = new Map(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((o) => [o.uid, o]));
    expect(s.received.filter((u) => u === 'sa_1')).toHaveLength(1);
    expect(reported.get('sa_1')).toMatchObject({ ok: false, status: 429, error: { message: expect.stringMatching(/^429 Too Many Requests: refused sa_1; retry in 30 s$/) } });
    for (const uid of s.received) expect(reported.has(uid), uid).toBe(true);
    expect(r.stderr).not.toContain('interrupted (outcome unknown)');
  });

  it('Ctrl-C stops sending: what was in flight is reported as of unknown outcome, exit 130', async () => {
    const s = await serve((uid) => (Number(uid.slice(3)) <= 6 ? { status: 200 } : { status: 200, hang: true }));
    const controller = new AbortController();
    const timer = setInterval(() => {
      if (s.received.length >= 8) controller.abort();
    }, 10);
    const r = await expire(s, uids(50).join('\n'), ['--jsonl'], { signal: controller.signal });
    clearInterval(timer);
    expect(r.code).toBe(130);
    const reported = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const reportedUids = new Set(reported.map((o) => o.uid));
    // No record both unreported and sent.
    for (const uid of s.received) expect(reportedUids.has(uid), uid).toBe(true);
    expect(s.received.length).toBeLessThan(50);
    const unknown = reported.filter((o) => !o.ok);
    expect(unknown.length).toBeGreaterThan(0);
    for (const o of unknown) expect(o.error).toEqual({ code: 'interrupted', message: 'interrupted: outcome unknown' });
    expect(r.stderr).toMatch(/\d+ expired, \d+ interrupted \(outcome unknown\)(, 1 not attempted)? on .*; the rest of stdin was not read\n/);
  });

  it('Ctrl-C gives requests in flight up to a second: an answer within it is reported as it is', async () => {
    // sa_1..sa_6 answer at once; once sa_7 and sa_8 are both in, Ctrl-C, and they
    // answer just after it (well inside the second); every later one never answers.
    const controller = new AbortController();
    const ctrlC = new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true }));
    let slow = 0;
    const s = await serve((uid) => {
      const n = Number(uid.slice(3));
      if (n <= 6) return { status: 200 };
      if (n > 8) return { status: 200, hang: true };
      if (++slow === 2) setImmediate(() => controller.abort());
      return { status: 200, after: ctrlC };
    });
    const r = await expire(s, uids(50).join('\n'), ['--jsonl', '--concurrency', '4'], { signal: controller.signal });
    expect(r.code).toBe(130);
    const reported = new Map(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((o) => [o.uid, o]));
    // The slow answers came within the second: their outcome is known.
    expect(reported.get('sa_7')).toMatchObject({ ok: true, status: 200 });
    expect(reported.get('sa_8')).toMatchObject({ ok: true, status: 200 });
    // What never answered is reported unknown once the second is over, and nothing sent is unreported.
    for (const uid of s.received) expect(reported.has(uid), uid).toBe(true);
    const unknown = [...reported.values()].filter((o) => !o.ok);
    expect(unknown.length).toBeGreaterThan(0);
    for (const o of unknown) expect(o.error).toEqual({ code: 'interrupted', message: 'interrupted: outcome unknown' });
    // One second of grace, then the summary: what hangs was given up as interrupted (code
    // above), not left to the request timeout, which would have reported a timeout.
  });

  it('--concurrency bounds the requests in flight, over one keep-alive pool', async () => {
    const s = await serve(() => ({ status: 200, delayMs: 20 }));
    const r = await expire(s, uids(30).join('\n'), ['--concurrency', '3']);
    expect(r.code).toBe(0);
    expect(s.maxInFlight).toBe(3);
    expect(s.connections).toBeLessThanOrEqual(3);
    const d = await serve(() => ({ status: 200, delayMs: 20 }));
    const r2 = await expire(d, uids(30).join('\n'));
    expect(r2.code).toBe(0);
    expect(d.maxInFlight).toBe(4);
    await s.close();
  });

  it('runs a batch of 10,000 Uids through one process', async () => {
    const s = await serve();
    const r = await expire(s, `${uids(10_000).join('\n')}\n`, ['--concurrency', '16']);
    expect(r.code).toBe(0);
    expect(s.received).toHaveLength(10_000);
    expect(new Set(s.received).size).toBe(10_000);
    expect(r.stdout.split('\n').filter((l) => l.endsWith('\tok\texpired'))).toHaveLength(10_000);
    expect(s.maxInFlight).toBeLessThanOrEqual(16);
    expect(s.connections).toBeLessThanOrEqual(16);
    expect(r.stderr).toBe(`10000 expired on ${s.url} (profile default)\n`);
  }, 120_000);
});

describe('--dry-run', () => {
  it('prints exactly the method, URL and body a real run then sends', async () => {
    const s = await serve(() => ({ status: 200, body: { Uid: 'x' } }));
    const cases = [
      ['accounts', 'extend-trial', 'acc_1', '--to', '2031-01-31', '--expiration', '2031-02-01T08:00:00+01:00'],
      ['accounts', 'cancel', 'acc_2', '--reason', 'Too expensive', '--comment', 'ünïcode "quoted"', '--yes'],
      ['articles', 'untag', 'art_1', 'tag_1'],
      ['drips', 'delete', 'drip_1', '--yes'],
      ['addons', 'expire', 'sa_1'],
    ];
    for (const argv of cases) {
      const dry = await runBo([...argv, '--dry-run', '--json', '--no-log'], { env: testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }) });
      expect(dry.code, argv.join(' ')).toBe(0);
      const planned = JSON.parse(dry.stdout);
      const sentBefore = s.requests.length;
      const real = await runBo([...argv, '--no-log'], { env: testEnv(s, { BO_API_KEY: 'k1', BO_API_SECRET: 's1' }) });
      expect(real.code, argv.join(' ')).toBe(0);
      // A single cancel then reads the account back: one GET after its PUT.
      const reads = argv[1] === 'cancel' ? 1 : 0;
      expect(s.requests.length).toBe(sentBefore + 1 + reads);
      const [method, path] = s.requests[sentBefore]!.split(' ');
      expect(`${planned.method} ${planned.url}`).toBe(`${method} ${s.url}${path}`);
      expect(planned.body).toEqual(s.bodies[sentBefore] === '' ? null : JSON.parse(s.bodies[sentBefore]!));
      if (reads) expect(s.requests.at(-1)).toMatch(/^GET \/api\/v1\/crm\/accounts\?q=acc_2&/);
    }
    expect(s.requests.length).toBe(cases.length + 1);
  });
});
