// Text `bo api` reads whole (`--input -`, `-F key=@-`, `-F key=@file`), on the built
// binary with stdin a real pipe written in pieces that cut characters in two: what the
// server receives is the text as typed, and bytes that are not UTF-8 are refused (exit
// 2, naming the flag) with nothing sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { cutBytes } from '../helpers/cut-bytes.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBin } from '../helpers/run-bin.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
  server.fallback(reply.json(200, { ok: true }));
});
afterAll(() => server.close());

/** `bytes` in pieces of `size` bytes: with an odd size every piece ends inside a character. */
const pieces = (bytes: Buffer, size: number) => cutBytes(bytes, Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size));

const text = 'é'.repeat(1000) + '€𝄞'.repeat(200);

describe('bo api reads stdin and files as whole UTF-8 text', () => {
  it('--input -: a character cut across reads arrives whole', async () => {
    const before = server.requests.length;
    const stdin = pieces(Buffer.from(JSON.stringify({ Name: 'x', Description: text })), 101);
    const r = await runBin(['api', '/email/lists', '--input', '-'], { env: testEnv(server), stdin, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body)).toEqual({ Name: 'x', Description: text });
  });

  it('-F key=@-: a character cut across reads arrives whole', async () => {
    const before = server.requests.length;
    const r = await runBin(['api', '/email/lists', '-F', 'Name=x', '-F', 'Description=@-'], {
      env: testEnv(server),
      stdin: pieces(Buffer.from(text), 77),
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body).Description).toBe(text);
  });

  it('refuses stdin that is not UTF-8 naming the flag, exit 2, nothing sent', async () => {
    const before = server.requests.length;
    const cases: Array<[string[], string]> = [
      [['api', '/email/lists', '--input', '-'], '--input'],
      [['api', '/email/lists', '-F', 'Name=x', '-F', 'Description=@-'], '-F Description'],
    ];
    for (const [args, flag] of cases) {
      const r = await runBin(args, { env: testEnv(server), stdin: Buffer.from('{"Name":"caf\xe9"}', 'latin1') });
      expect(r.stderr, flag).toMatch(new RegExp(`^error: ${flag}: stdin is not valid UTF-8\\n`));
      expect(r.code, flag).toBe(2);
    }
    expect(server.requests.length).toBe(before);
  });

  it('refuses UTF-16 text (stdin or a file) naming the flag, the encoding and the iconv that converts it, nothing sent', async () => {
    const before = server.requests.length;
    const utf16 = Buffer.from('\ufeff{"Name":"café"}', 'utf16le');
    const stdin = await runBin(['api', '/email/lists', '--input', '-'], { env: testEnv(server), stdin: utf16 });
    expect(stdin.stderr).toBe('error: --input: stdin is UTF-16 text, not UTF-8: convert it first with iconv -f UTF-16 -t UTF-8\n');
    expect(stdin.code).toBe(2);
    const file = join(mkdtempSync(join(tmpdir(), 'bo-utf16-')), 'list.json');
    writeFileSync(file, utf16);
    const fromFile = await runBin(['api', '/email/lists', '--input', file], { env: testEnv(server) });
    expect(fromFile.stderr).toBe(`error: --input: ${JSON.stringify(file)} is UTF-16 text, not UTF-8: convert it first with iconv -f UTF-16 -t UTF-8\n`);
    expect(fromFile.code).toBe(2);
    expect(server.requests.length).toBe(before);
  });

  it('refuses a file that is not UTF-8 (--input file, -F key=@file) naming the flag, exit 2, nothing sent', async () => {
    const before = server.requests.length;
    const dir = mkdtempSync(join(tmpdir(), 'bo-latin1-'));
    const file = join(dir, 'notes.txt');
    writeFileSync(file, Buffer.from('{"Name":"caf\xe9"}', 'latin1'));
    for (const [args, flag] of [
      [['api', '/email/lists', '--input', file], '--input'],
      [['api', '/email/lists', '-F', 'Name=x', '-F', `Description=@${file}`], '-F Description'],
    ] as Array<[string[], string]>) {
      const r = await runBin(args, { env: testEnv(server) });
      expect(r.stderr, flag).toContain(`error: ${flag}: ${JSON.stringify(file)} is not valid UTF-8\n`);
      expect(r.code, flag).toBe(2);
    }
    expect(server.requests.length).toBe(before);
  });
});
