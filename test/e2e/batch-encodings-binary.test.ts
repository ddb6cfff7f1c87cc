// Batch input in an encoding other than UTF-8, on the built binary against a sandbox over
// loopback HTTP (what was sent is read from its activity log): UTF-16 without a byte
// order mark, told from its first line, is refused before anything is sent with the
// iconv that converts it; a UTF-8 byte order mark past the start (files joined with cat)
// makes its line invalid, nothing sent for it, while the other lines go on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox();
  env = testEnv(sb);
});
afterAll(() => sb.close());

/** The built bo, and the requests the sandbox logged while it ran. */
async function bo(argv: string[], stdin: Uint8Array | string) {
  const before = (await sb.activity()).length;
  const r = await runBin(argv, { env, stdin });
  return { ...r, sent: (await sb.activity()).slice(before).map((a) => `${a.method} ${a.path}`) };
}

const BOM = '\ufeff';

describe('batch input encodings (built binary)', () => {
  it.each([
    ['UTF-16LE', Buffer.from('Alpha list\r\nBeta list\r\n', 'utf16le')],
    ['UTF-16BE', Buffer.from('Alpha list\nBeta list\n', 'utf16le').swap16()],
  ])('%s without a byte-order mark: refused before anything is sent, with the iconv that converts it (exit 2)', async (encoding, bytes) => {
    const r = await bo(['lists', 'create', '-'], bytes);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: stdin is ${encoding} text without a byte-order mark, not UTF-8: convert it first with iconv -f ${encoding} -t UTF-8\n`,
      sent: [],
    });
    // Converted as the message says, the same input goes.
    const utf8 = new TextDecoder(encoding.toLowerCase()).decode(bytes);
    const converted = await bo(['lists', 'create', '-', '--json'], utf8.replaceAll('list', `list ${encoding}`));
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.sent).toEqual(['POST /api/v1/email/lists', 'POST /api/v1/email/lists']);
  });

  it('a byte-order mark after the first line: that line is invalid and nothing is sent for it; the others are sent', async () => {
    // Three files joined with cat, each saved with a byte-order mark; the last without a final newline joined to a fourth.
    const input = `${BOM}Cat one\n${BOM}Cat two\nCat three\n${BOM}Cat four${BOM}Cat five\nCat six\n`;
    const r = await bo(['lists', 'create', '-', '--json'], input);
    expect(r.code).toBe(1);
    const outcomes = JSON.parse(r.stdout) as Array<{ line: number; ok: boolean; error: { code: string; message: string } | null }>;
    const why = (line: number) => `line ${line}: a byte-order mark in the middle: files joined with cat?`;
    expect(outcomes.filter((o) => !o.ok).map((o) => [o.line, o.error])).toEqual([
      [2, { code: 'invalid', message: why(2) }],
      [4, { code: 'invalid', message: why(4) }],
    ]);
    expect(outcomes.filter((o) => o.ok).map((o) => o.line).sort()).toEqual([1, 3, 5]);
    expect(r.sent).toEqual(['POST /api/v1/email/lists', 'POST /api/v1/email/lists', 'POST /api/v1/email/lists']);
    // What the sandbox holds: the first line's own mark dropped, no name with a mark in it.
    const names = ((await sb.api('GET', '/email/lists?limit=100')).body.items as Array<{ Name: string }>).map((l) => l.Name);
    expect(names).toEqual(expect.arrayContaining(['Cat one', 'Cat three', 'Cat six']));
    expect(names.filter((n) => n.startsWith('Cat') && !['Cat one', 'Cat three', 'Cat six'].includes(n))).toEqual([]);
    expect(names.some((n) => n.includes(BOM))).toBe(false);
  });
});
