// A colleague's spreadsheet export fed to a batch, on the built binary with stdin a real
// pipe. The first column with its heading (`Uid`, `Email`, any case, after a byte order
// mark) is skipped with a note, never sent as a Uid; a row of the whole CSV (`;` or `,`
// or quotes) is an invalid line that says it looks like CSV and how to keep the first
// column, never sent URL-encoded as one Uid; "Unicode text" (UTF-16, UTF-32) is refused
// whole, exit 2, naming the encoding and the iconv that converts it. An invalid line's
// outcome holds uid null and the line as it came (`input`); a dry run's plans name the
// Uid and line as outcomes do, and on the embedded sandbox a path, not an address.
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { reply, startFaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';
import { testEnv } from '../helpers/test-env.js';
import { closedAfterEach, startBatchServer, type BatchServer } from './batch-server.js';

const closing = closedAfterEach();
const expireOn = (server: BatchServer, stdin: string | Buffer, flags: string[] = []) =>
  runBin(['addons', 'expire', '-', '--yes', ...flags], { env: testEnv(server.url, { NO_COLOR: '1' }), stdin });
const csv = (line: number, cut: string) => `line ${line}: looks like CSV: pass the first column only (${cut})`;

describe('a batch from a spreadsheet export', () => {
  it('the first column with its heading: the heading is skipped with a note, the Uids go (BOM, CRLF, blank lines, spaces)', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const r = await expireOn(server, '\ufeffUid\r\nsa_1\r\n\r\nsa_2  \r\n');
    expect(server.received).toEqual(['sa_1', 'sa_2']);
    expect(r.stdout).toBe('sa_1\tok\texpired\nsa_2\tok\texpired\n');
    expect(r.stderr).toBe(`line 1 is a column header (Uid): skipped\n2 expired on ${server.url} (profile default)\n`);
    expect(r.code).toBe(0);
  });

  it('a column cut from an export under any heading ("Add-on ID"): the heading is skipped with a note when line 2 is valid; a valid first line never is', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const column = 'Add-on ID\r\nsa_1\r\nsa_2\r\n';
    const dry = await runBin(['addons', 'expire', '-', '--dry-run'], { env: testEnv(server.url, { NO_COLOR: '1' }), stdin: column });
    expect(dry.stdout).toBe(`PUT ${server.url}/api/v1/billing/subscriptionaddons/sa_1/expire\nPUT ${server.url}/api/v1/billing/subscriptionaddons/sa_2/expire\n`);
    expect(dry.stderr).toMatch(/^line 1 is a column header \(Add-on ID\): skipped\n.*2 request\(s\) would be sent; nothing was sent\.\n$/s);
    expect(dry.code).toBe(0);
    expect(server.received).toEqual([]);

    const real = await expireOn(server, column);
    expect(server.received).toEqual(['sa_1', 'sa_2']);
    expect(real.stdout).toBe('sa_1\tok\texpired\nsa_2\tok\texpired\n');
    expect(real.stderr).toBe(`line 1 is a column header (Add-on ID): skipped\n2 expired on ${server.url} (profile default)\n`);
    expect(real.code).toBe(0);

    // One Uid alone, and a valid first line before another: both sent, nothing skipped.
    server.received.length = 0;
    const one = await expireOn(server, 'sa_9\n');
    expect([one.code, one.stderr]).toEqual([0, `1 expired on ${server.url} (profile default)\n`]);
    const firstValid = await expireOn(server, 'Total\nsa_3\n');
    expect(firstValid.code).toBe(0);
    expect(server.received).toEqual(['sa_9', 'Total', 'sa_3']);
    expect(firstValid.stderr).not.toContain('column header');

    // A heading alone, or one before another invalid line, stays an invalid line.
    const alone = await expireOn(server, 'Add-on ID\n');
    expect(alone.stdout).toBe('-\tinvalid\tline 1 must be a Uid without spaces, "/" or control characters, got "Add-on ID"\n');
    expect(alone.code).toBe(1);
    const twoBad = await expireOn(server, 'Add-on ID\nbad one\nsa_4\n');
    expect(twoBad.stdout.split('\n').filter((l) => l.includes('\tinvalid\t'))).toHaveLength(2);
    expect(server.received).toEqual(['sa_9', 'Total', 'sa_3', 'sa_4']);
  });

  it('rows of the whole CSV are invalid lines that say so; the first line is validated like any other; nothing is sent for them', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const r = await expireOn(server, 'sa_1;Globex\nsa_2,Acme Inc\n"sa_3"\nsa_4\n');
    expect(server.received).toEqual(['sa_4']);
    expect(r.stdout.split('\n').filter((l) => l.includes('\tinvalid\t'))).toEqual([
      `-\tinvalid\t${csv(1, "cut -d';' -f1")}`,
      `-\tinvalid\t${csv(2, "cut -d',' -f1")}`,
      `-\tinvalid\t${csv(3, `cut -d';' -f1 | tr -d '"'`)}`,
    ]);
    expect(r.stderr).toContain('error: 3 of 4 record(s) failed');
    expect(r.code).toBe(1);
  });

  it('--json: an invalid line has uid null and its input, cut to 200 characters; the others their Uid', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const long = `${'x'.repeat(250)};Globex`;
    const r = await expireOn(server, `sa_1;Globex\n${long}\nsa_2\n`, ['--json', '--concurrency', '1']);
    const outcomes = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(outcomes).toEqual([
      { uid: null, input: 'sa_1;Globex', line: 1, ok: false, status: null, changed: false, reason: 'not-sent', error: { code: 'invalid', message: csv(1, "cut -d';' -f1") } },
      { uid: null, input: 'x'.repeat(200), line: 2, ok: false, status: null, changed: false, reason: 'not-sent', error: { code: 'invalid', message: csv(2, "cut -d';' -f1") } },
      { uid: 'sa_2', line: 3, ok: true, status: 200, changed: true, reason: null, error: null },
    ]);
    expect(outcomes.filter((o) => !o.ok).map((o) => o.uid)).toEqual([null, null]);
    expect(r.code).toBe(1);
  });

  it('UTF-16 or UTF-32 text ("Unicode text") is refused whole: exit 2 naming the encoding and iconv, nothing sent', async () => {
    const server = closing(await startBatchServer(() => ({ status: 200 })));
    const utf16 = Buffer.from('\ufeffUid\r\nsa_1\r\nsa_2\r\n', 'utf16le');
    const r = await expireOn(server, utf16);
    expect(r.stderr).toBe('error: stdin is UTF-16 text, not UTF-8: convert it first with iconv -f UTF-16 -t UTF-8\n');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
    const utf32be = Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x73, 0, 0, 0, 0x0a]);
    const dry = await runBin(['addons', 'expire', '-', '--dry-run'], { env: testEnv(server.url), stdin: utf32be });
    expect(dry.stderr).toBe('error: stdin is UTF-32 text, not UTF-8: convert it first with iconv -f UTF-32 -t UTF-8\n');
    expect(dry.code).toBe(2);
    expect(server.received).toEqual([]);
  });

  it('an address list with its heading (Email): the heading is skipped, the addresses go', async () => {
    const fault = closing(await startFaultServer());
    fault.fallback(reply.json(201, { Uid: 'sub_1', Person: { Email: 'a@example.com' } }));
    const r = await runBin(['lists', 'subscribe', 'list_1', '--email', '-'], { env: testEnv(fault.url, { NO_COLOR: '1' }), stdin: 'EMAIL\na@example.com\n' });
    expect(fault.requests.map((q) => JSON.parse(q.body).Person.Email)).toEqual(['a@example.com']);
    expect(r.stderr).toContain('line 1 is a column header (EMAIL): skipped\n');
    expect(r.code).toBe(0);
  });
});

describe('a dry run of a batch', () => {
  it('--json plans carry the Uid and line as outcomes do; on the embedded sandbox the URL is a path, not an address', async () => {
    const t = tempConfig();
    const r = await runBin(['--sandbox', 'addons', 'expire', '-', '--dry-run', '--json'], {
      env: { ...t.env, BO_DATA_DIR: `${t.root}/data` },
      stdin: 'uid\nsa_1\n\nsa_2\n',
    });
    expect(JSON.parse(r.stdout)).toEqual([
      { uid: 'sa_1', line: 2, method: 'PUT', url: '/api/v1/billing/subscriptionaddons/sa_1/expire', body: null },
      { uid: 'sa_2', line: 4, method: 'PUT', url: '/api/v1/billing/subscriptionaddons/sa_2/expire', body: null },
    ]);
    expect(r.stderr).toBe(
      'line 1 is a column header (uid): skipped\nDry run on profile "sandbox" (the embedded sandbox): 2 request(s) would be sent; nothing was sent.\n',
    );
    expect(r.code).toBe(0);
  });
});
