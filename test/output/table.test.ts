// The TTY table: fitted to the terminal (Uid never cut, piped output never cut),
// streamed as pages arrive, and stopped by Ctrl-C within a second whether the server
// is slow or stdout never drains.
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runTty } from './tty-run.js';

/** Ctrl-C ends a run promptly: far under the 30 s request timeout a missed abort would wait out, generous for a loaded machine. */
const PROMPTLY_MS = 10_000;

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());
afterEach(() => {
  server.fallback(undefined);
  server.verify();
});

const LONG_UID = 'acc_0123456789ab';
const account = (i: number, name = `Account ${i}`) => ({
  Uid: i === 0 ? LONG_UID : `acc_${String(i).padStart(6, '0')}`,
  Name: name,
  AccountStage: 2,
  AccountStageLabel: 'Trialing',
  Currency: 'EUR',
  Created: '2026-03-04T05:06:07Z',
});
const pageOf = (items: unknown[], offset: number, total: number) => ({ metadata: { limit: 100, offset, total }, items });
const longName = 'Wernham Hogg Paper Merchants of Slough and Swindon, International Holdings Division';
const wideName = '株式会社東京海上日動火災保険グループ本社営業部門統括管理センター';

describe('fitting the terminal', () => {
  const wide = [account(0, longName), account(1, wideName), account(2)];

  it('at 60 columns cuts the widest text with an ellipsis, never the Uid', async () => {
    server.script(reply.json(200, pageOf(wide, 0, 3)));
    const r = await runTty(['--no-color', 'accounts', 'list'], { env: testEnv(server), columns: 60 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
    expect(r.stdout).toContain(`│ ${LONG_UID} │`);
    expect(r.stdout).toContain('…');
    expect(r.stdout).not.toContain(longName);
    expect(r.stdout).toMatch(/│ Wer[^│ ]*… +│/);
    // Dates give up their time before any text is cut, then stay whole while text can
    // give way; the header's name is cut before its zone (never narrower than that).
    const zoneHeader = 'Cr… (UTC+00:00)'.length;
    expect(lines[0]!.split('┬').at(-1)).toBe(`${'─'.repeat(zoneHeader + 2)}┐`);
    expect(lines[1]).toMatch(/│ Cr… \(UTC[+-]\d\d:\d\d\) │$/);
    expect(r.stdout).toMatch(/│ 2026-03-0\d +│\n/);
  });

  it('at 200 columns shows every value whole', async () => {
    server.script(reply.json(200, pageOf(wide, 0, 3)));
    const r = await runTty(['--no-color', 'accounts', 'list'], { env: testEnv(server), columns: 200 });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/^│ Uid +│ Name +│ Stage +│ Currency │ Created \(UTC[+-]\d\d:\d\d\) │$/);
    expect(r.stdout).toContain(longName);
    expect(r.stdout).toContain(wideName);
    expect(r.stdout).not.toContain('…');
    // Wide characters count two cells: the borders still line up.
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
  });

  it('never cuts piped output, whatever the terminal width', async () => {
    server.script(reply.json(200, pageOf(wide, 0, 3)));
    const r = await runTty(['accounts', 'list'], { env: testEnv(server), columns: 60, stdoutIsTTY: false });
    expect(r.stdout.split('\n')[0]).toBe([LONG_UID, longName, '2 Trialing', 'EUR', '2026-03-04T05:06:07Z'].join('\t'));
    expect(r.stdout).toContain(wideName);
    expect(r.stdout).not.toContain('…');
  });

  it('cuts a later row wider than the first page to its column', async () => {
    const first = Array.from({ length: 100 }, (_, i) => account(i + 1));
    server.script(reply.json(200, pageOf(first, 0, 101)), reply.json(200, pageOf([account(101, longName)], 1, 101)));
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], { env: testEnv(server), columns: 200 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(101 + 4);
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
    expect(lines.at(-2)).toMatch(/│ Wernham[^│]*… │/);
  });
});

describe('the record view on a TTY', () => {
  it('fits the terminal, cutting long values but never the Uid', async () => {
    const record = { ...account(0), Uid: 'acc_0123456789abcdefghij', InvoiceNotes: longName };
    server.script(reply.json(200, { items: [record] }));
    const r = await runTty(['--no-color', 'accounts', 'get', record.Uid], { env: testEnv(server), columns: 40 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`│ Uid +│ ${record.Uid} │`));
    expect(r.stdout).toContain('│ AccountStageLabel │');
    expect(r.stdout).toMatch(/│ InvoiceNotes +│ Wernham[^│]*… │/);
    const rows = r.stdout.trimEnd().split('\n').filter((l) => !l.includes('│ Uid '));
    for (const l of rows) expect(displayWidth(l), l).toBeLessThanOrEqual(40);
  });
});

/** A scripted answer held until the test releases it. */
function held() {
  let release!: (body: unknown) => void;
  const answered = new Promise<unknown>((resolve) => (release = resolve));
  const step = (_req: unknown, res: ServerResponse) => {
    void answered.then((body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  };
  return { step, release };
}

const pages = (n: number) => Array.from({ length: n }, (_, p) => Array.from({ length: 100 }, (_, i) => account(p * 100 + i + 1)));

describe('streaming', () => {
  it('writes the first rows before the last page is requested', async () => {
    const [p0, p1, p2] = pages(3);
    const second = held();
    const requestsWhenFirstRowShown: number[] = [];
    server.requests.length = 0;
    server.script(reply.json(200, pageOf(p0!, 0, 300)), second.step, reply.json(200, pageOf(p2!, 2, 300)));
    // One page at a time: what is asked when shows the streaming, not the paging.
    const run = runTty(['--no-color', 'accounts', 'list', '--all', '--concurrency', '1'], {
      env: testEnv(server),
      onStdout: (_chunk, all) => {
        if (requestsWhenFirstRowShown.length === 0 && all.includes(p0![0]!.Uid)) {
          requestsWhenFirstRowShown.push(server.requests.length);
          second.release(pageOf(p1!, 1, 300));
        }
      },
    });
    const r = await run;
    expect(r.code).toBe(0);
    // Page 2 was asked for (and held); page 3 not yet, when the first rows were shown.
    expect(requestsWhenFirstRowShown).toEqual([2]);
    expect(server.requests.map((q) => new URL(q.url, server.url).searchParams.get('offset'))).toEqual(['0', '1', '2']);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(300 + 4);
  });
});

describe('Ctrl-C', () => {
  it('while a slow server is paging: exit 130 within a second', async () => {
    const [p0] = pages(1);
    // The pages after the first, asked for ahead, hang.
    server.script(reply.json(200, pageOf(p0!, 0, 500)));
    server.fallback(reply.hang());
    const controller = new AbortController();
    let abortedAt = 0;
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], {
      env: testEnv(server),
      signal: controller.signal,
      onStdout: (_chunk, all) => {
        if (!abortedAt && all.includes(p0![99]!.Uid)) {
          // The first page is shown; the second one hangs. Wait a moment, then Ctrl-C.
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 300);
        }
      },
    });
    expect(abortedAt).toBeGreaterThan(0);
    // The page that hangs is never answered: ending at all proves Ctrl-C did not wait for
    // it; the bound, far under the 30 s request timeout, proves it was not waited out.
    expect(performance.now() - abortedAt).toBeLessThan(PROMPTLY_MS);
    expect(r.code).toBe(130);
    expect(r.stderr).toBe('error: interrupted\n');
  });

  it('while waiting for the first page, in every output mode: exit 130 promptly, nothing printed', async () => {
    for (const [flags, tty] of [[['--no-color'], true], [[], false], [['--json'], false], [['--jsonl'], false]] as const) {
      server.script(reply.hang());
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = performance.now();
      const r = await runTty([...flags, 'accounts', 'list', '--all'], { env: testEnv(server), signal: controller.signal, stdoutIsTTY: tty });
      expect(r.code, flags.join(' ')).toBe(130);
      expect(performance.now() - started, flags.join(' ')).toBeLessThan(PROMPTLY_MS);
      expect(r.stdout, flags.join(' ')).toBe('');
    }
  });

  it('while stdout never drains: exit 130 promptly, no wait for a drain that never comes', async () => {
    const [p0, p1] = pages(2);
    server.script(reply.json(200, pageOf(p0!, 0, 200)), reply.json(200, pageOf(p1!, 1, 200)));
    let writes = 0;
    const stuck = new Writable({
      highWaterMark: 16,
      write(_chunk, _enc, _cb) {
        writes++; // never calls back: a terminal that stopped reading (Ctrl-S)
      },
    });
    const controller = new AbortController();
    const abortAfter = 500;
    setTimeout(() => controller.abort(), abortAfter);
    const started = performance.now();
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], { env: testEnv(server), signal: controller.signal, stdout: stuck });
    expect(writes).toBeGreaterThan(0);
    expect(r.code).toBe(130);
    expect(performance.now() - started).toBeLessThan(abortAfter + PROMPTLY_MS);
    for (const mode of ['--jsonl', '--json']) {
      server.script(reply.json(200, pageOf(p0!, 0, 200)), reply.json(200, pageOf(p1!, 1, 200)));
      const c = new AbortController();
      setTimeout(() => c.abort(), 300);
      const t = performance.now();
      const blocked = new Writable({ highWaterMark: 16, write() {} });
      const m = await runTty([mode, 'accounts', 'list', '--all'], { env: testEnv(server), signal: c.signal, stdout: blocked, stdoutIsTTY: false });
      expect(m.code, mode).toBe(130);
      expect(performance.now() - t, mode).toBeLessThan(PROMPTLY_MS);
    }
  });
});

describe('a page that fails midway', () => {
  it('keeps the rows already read, closes the table, and reports the error', async () => {
    const [p0] = pages(1);
    // Every page after the first, asked for ahead, is refused.
    server.script(reply.json(200, pageOf(p0!, 0, 300)));
    server.fallback(reply.json(400, { error: 'validation_failed', error_description: 'page refused' }));
    const r = await runTty(['--no-color', 'accounts', 'list', '--all'], { env: testEnv(server) });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(100 + 4);
    expect(lines.at(-1)).toMatch(/^└─+┴/);
    expect(r.stderr).toContain('page refused');
  });
});

describe('a page that fails during the look-ahead', () => {
  it('still shows the rows of the pages before it', async () => {
    const first = Array.from({ length: 25 }, (_, i) => account(i + 1));
    // The pages asked for ahead of the first one's end are all refused.
    server.script(reply.json(200, { metadata: { limit: 25, offset: 0, total: 100 }, items: first }));
    server.fallback(reply.json(400, { error: 'validation_failed', error_description: 'second page refused' }));
    const r = await runTty(['--no-color', 'accounts', 'list', '--all', '--page-size', '25'], { env: testEnv(server) });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(25 + 4);
    expect(r.stdout).toContain(`│ ${first[24]!.Uid} `);
    expect(r.stderr).toContain('second page refused');
  });
});
