// The one streaming JSON writer (src/output/json-stream.ts) that lists, dry-run plans
// and batch outcomes write through.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { InterruptedError } from '../../src/errors.js';
import { jsonStream, type JsonMode } from '../../src/output/json-stream.js';

function capture(signal = new AbortController().signal, globals: Partial<Context['globals']> = {}) {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const ctx = { io: { stdout }, signal, globals } as unknown as Context;
  return { ctx, stdout, text: () => text };
}

async function written(mode: JsonMode, values: unknown[]): Promise<string> {
  const { ctx, text } = capture();
  const out = jsonStream(ctx, mode);
  for (const v of values) await out.write(v);
  await out.end();
  return text();
}

describe('jsonStream', () => {
  it('for people (colorJson): the same array, indented as jq indents it and coloured; --jsonl as ever', async () => {
    const { ctx, text } = capture(undefined, { colorJson: true });
    const out = jsonStream(ctx, 'json');
    for (const v of [{ a: [1, 'x'] }, null]) out.push(v);
    await out.end();
    expect(text().replace(/\u001b\[[0-9;]*m/g, '')).toBe(`${JSON.stringify([{ a: [1, 'x'] }, null], null, 2)}\n`);
    expect(text()).toContain('\u001b[1;34m"a"\u001b[22;39m: [');
    const lines = capture(undefined, { colorJson: true });
    const l = jsonStream(lines.ctx, 'jsonl');
    l.push({ a: 1 });
    await l.end();
    expect(lines.text()).toBe('{"a":1}\n');
  });

  it('writes one array with --json, `[]` for none, and one value a line with --jsonl', async () => {
    expect(await written('json', [{ a: 1 }, 'x', null])).toBe('[\n{"a":1},\n"x",\nnull\n]\n');
    expect(await written('json', [])).toBe('[]\n');
    expect(await written('jsonl', [{ a: 1 }, 2])).toBe('{"a":1}\n2\n');
    expect(await written('jsonl', [])).toBe('');
    expect(JSON.parse(await written('json', [{ a: [1, 2] }, { b: 'é' }]))).toEqual([{ a: [1, 2] }, { b: 'é' }]);
  });

  it('takes a record as its JSON text between values, escaped the same; not for people, whose JSON is indented', async () => {
    const page = Buffer.from('xx{"a":1}yy{"n":"evil\u202e"}zz');
    const span = (text: string) => [page.indexOf(text), page.indexOf(text) + Buffer.byteLength(text)] as const;
    for (const mode of ['json', 'jsonl'] as const) {
      const { ctx, text } = capture();
      const out = jsonStream(ctx, mode);
      out.push({ before: true });
      expect(out.pushText!(page, ...span('{"a":1}'))).toBe(false);
      out.pushText!(page, ...span('{"n":"evil\u202e"}'));
      expect(out.count).toBe(3);
      await out.end();
      expect(text()).toBe(await written(mode, [{ before: true }, { a: 1 }, { n: 'evil\u202e' }]));
    }
    expect(jsonStream(capture(undefined, { colorJson: true }).ctx, 'json').pushText).toBeUndefined();
  });

  it('escapes what jsonText escapes, in values pushed a page at a time', async () => {
    const { ctx, text } = capture();
    const out = jsonStream(ctx, 'jsonl');
    expect(out.push({ name: 'evil\u202eexe', ok: 'Müller' })).toBe(false);
    out.push('\u009b31m');
    expect(out.count).toBe(2);
    await out.end();
    expect(text()).toBe('{"name":"evil\\u202eexe","ok":"Müller"}\n"\\u009b31m"\n');
  });

  it('stops at Ctrl-C, unless it writes after an abort (a batch reporting its interrupted records)', async () => {
    const stopped = new AbortController();
    stopped.abort();
    expect(() => jsonStream(capture(stopped.signal).ctx, 'jsonl').push(1)).toThrow(InterruptedError);
    const { ctx, text } = capture(stopped.signal);
    const out = jsonStream(ctx, 'json', { afterAbort: true });
    await out.write({ uid: 'a', error: 'interrupted' });
    await out.end();
    expect(JSON.parse(text())).toEqual([{ uid: 'a', error: 'interrupted' }]);
  });
});
