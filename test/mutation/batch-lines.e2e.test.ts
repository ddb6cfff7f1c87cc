// Batch lines on the built binary, stdin a real pipe: a line over 64 KiB (here 40 MB),
// bytes that are not UTF-8, and JSON that is not a record are invalid lines, reported
// by line number with nothing sent for them, while the other lines go on. A 40 MB line
// is read in one pass and never held whole: the run ends on its own, well within the
// timeout, and its peak memory stays far below what holding and rescanning it took
// (325 MB). The bound is generous (150 MB) for a loaded machine.
import { describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { closedAfterEach, startBatchServer } from './batch-server.js';

const closing = closedAfterEach();

const BIG = 40 * 1024 * 1024;
const tooLong = (line: number) => `line ${line}: ${BIG.toLocaleString('en-US')} bytes, over the 64 KiB a line may hold`;

describe('batch lines', () => {
  it('a 40 MB line is one invalid line: nothing sent for it, the others go on, memory stays small', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const stdin = `sa_1\n${'u'.repeat(BIG)}\nsa_2\n`;
    const r = await runBin(['addons', 'expire', '-', '--yes'], { env: testEnv(server.url, { NO_COLOR: '1' }), stdin, measure: true });
    expect(r.peakMb).toBeLessThan(150);
    expect(r.stderr).toContain('error: 1 of 3 record(s) failed');
    expect(r.code).toBe(1);
    expect(server.received).toEqual(['sa_1', 'sa_2']);
    expect(r.stdout.split('\n').filter((l) => l.includes('invalid'))).toEqual([`-\tinvalid\t${tooLong(2)}`]);
  });

  it('--dry-run: a 40 MB line alone on stdin is one invalid line, and nothing is sent', async () => {
    const fault = closing(await startFaultServer());
    const r = await runBin(['addons', 'expire', '-', '--dry-run'], { env: testEnv(fault.url, { NO_COLOR: '1' }), stdin: 'u'.repeat(BIG), timeoutMs: 60_000 });
    expect(r.stderr).toContain(`invalid: ${tooLong(1)}\n`);
    expect(r.stderr).toContain('0 request(s) would be sent, 1 invalid line(s) skipped; nothing was sent.');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(fault.requests).toHaveLength(0);
  });

  it('lines that are not UTF-8, or JSON that is not a record, are invalid lines: named, not sent; the others go on', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const stdin = Buffer.concat([
      Buffer.from('sa_1\n'),
      Buffer.from('bad\xff\xfeutf\n', 'latin1'),
      Buffer.from('"quoted"\n["arr"]\n{"Uid":"sa_2"}\n'),
      Buffer.from('sa_\xe9\n', 'latin1'),
      Buffer.from('sa_3\n'),
    ]);
    const r = await runBin(['addons', 'expire', '-', '--yes'], { env: testEnv(server.url, { NO_COLOR: '1' }), stdin });
    expect(server.received).toEqual(['sa_1', 'sa_2', 'sa_3']);
    const invalid = r.stdout.split('\n').filter((l) => l.includes('\tinvalid\t'));
    expect(invalid).toEqual([
      '-\tinvalid\tline 2: not valid UTF-8',
      `-\tinvalid\tline 3: looks like CSV: pass the first column only (cut -d';' -f1 | tr -d '"')`,
      '-\tinvalid\tline 4: starts like JSON but is not a record; give the value alone or {"Uid": "…"}',
      '-\tinvalid\tline 6: not valid UTF-8',
    ]);
    expect(r.stdout).not.toContain('\uFFFD');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: 4 of 7 record(s) failed');
  });

  it('an address that is not UTF-8 (--email -) is an invalid line, never sent with U+FFFD', async () => {
    const fault = closing(await startFaultServer());
    fault.fallback(reply.json(201, { Uid: 'sub_1', Person: { Email: 'a@example.com' } }));
    const stdin = Buffer.concat([Buffer.from('e@exa\xffmple.com\n', 'latin1'), Buffer.from('a@example.com\n')]);
    const r = await runBin(['lists', 'subscribe', 'list_1', '--email', '-'], { env: testEnv(fault.url, { NO_COLOR: '1' }), stdin });
    expect(fault.requests.map((q) => JSON.parse(q.body).Person.Email)).toEqual(['a@example.com']);
    expect(r.stdout).toContain('-\tinvalid\tline 1: not valid UTF-8');
    expect(r.code).toBe(1);
  });
});
