// The parts of --jq that need no server: the layout and colours of JSON for people,
// the environment jq is given, and the filter itself (jq 1.8.2 in WebAssembly, loaded
// from the package when running from source).
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { compileJq, jqEnvironment, JqRuntimeError } from '../../src/output/jq.js';
import { loadJqEngine } from '../../src/output/jq-engine.js';
import { prettyJson } from '../../src/output/json-pretty.js';
import { jsonColours } from '../../src/output/style.js';
import { UsageError } from '../../src/errors.js';
import { thrownBy } from '../helpers/thrown.js';

/** Colours written as tags, so a test reads which part got which. */
const tags = { key: (t: string) => `<k>${t}</k>`, string: (t: string) => `<s>${t}</s>`, number: (t: string) => `<n>${t}</n>`, literal: (t: string) => `<l>${t}</l>` };
const none = { key: (t: string) => t, string: (t: string) => t, number: (t: string) => t, literal: (t: string) => t };

describe('prettyJson', () => {
  it('lays JSON out as jq does: two spaces an indent, empty [] and {} kept whole', () => {
    const values = [{ a: 1, b: [1, 2, { c: null }], d: {}, e: [], f: 'x,y:[z]' }, [], {}, 'text', -1.5e-7, [[[]]], { 'k"ey': 'a\\"b' }];
    for (const value of values) expect(prettyJson(JSON.stringify(value), none)).toBe(JSON.stringify(value, null, 2));
  });

  it('colours keys, strings, numbers and literals, and keeps the digits it was given', () => {
    expect(prettyJson('{"a":"b","n":1.50,"t":true,"f":false,"z":null,"big":100000000000000000001}', tags)).toBe(
      '{\n  <k>"a"</k>: <s>"b"</s>,\n  <k>"n"</k>: <n>1.50</n>,\n  <k>"t"</k>: <l>true</l>,\n  <k>"f"</k>: <l>false</l>,\n  <k>"z"</k>: <l>null</l>,\n  <k>"big"</k>: <n>100000000000000000001</n>\n}',
    );
    expect(prettyJson('[1E+1000,"\\"",-0]', tags, '  ')).toBe('[\n    <n>1E+1000</n>,\n    <s>"\\""</s>,\n    <n>-0</n>\n  ]');
  });

  it('uses the colours of style.ts', () => {
    expect(prettyJson('{"a":1}', jsonColours())).toBe('{\n  \u001b[1;34m"a"\u001b[22;39m: \u001b[36m1\u001b[39m\n}');
  });
});

describe('jqEnvironment', () => {
  it('leaves out bo\'s secrets, proxy passwords and any variable holding one', () => {
    const env = jqEnvironment({
      PATH: '/usr/bin',
      BO_TOKEN: 'tok-123456',
      BO_API_KEY: 'ak_live',
      BO_API_SECRET: 'sec-abcdef',
      BO_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
      HTTPS_PROXY: 'http://u:p%40ss-word@proxy:3128',
      http_proxy: 'proxy:8080',
      ALL_PROXY: 'http://user@[bad',
      COPY: 'Bearer tok-123456',
      UNSET: undefined,
    });
    expect(env).toEqual(['PATH=/usr/bin', 'BO_API_KEY=ak_live', 'HTTPS_PROXY=http://proxy:3128/', 'http_proxy=proxy:8080']);
  });
});

describe('compileJq', () => {
  const compile = (expression: string, people = false) => compileJq(expression, { GREETING: 'hi', BO_TOKEN: 'secret-token' }, people, new PassThrough());

  it('prints strings raw and other values as compact JSON, one a line', async () => {
    const jq = await compile('.a, .b, .c');
    expect(jq.apply('{"a":"x\\ty","b":[1,{"c":2}],"c":null}', false)).toBe('x\ty\n[1,{"c":2}]\nnull\n');
  });

  it('runs once per value of JSON lines', async () => {
    const jq = await compile('.n * 2');
    expect(jq.apply('{"n":1}\n{"n":2}\n{"n":3}\n', true)).toBe('2\n4\n6\n');
  });

  it('refuses a syntax error as a usage error naming --jq', async () => {
    await expect(compile('.[')).rejects.toThrow(UsageError);
    await expect(compile('.[')).rejects.toThrow(/^--jq: syntax error/);
    await expect(compile('$nope')).rejects.toThrow(/^--jq: \$nope is not defined/);
  });

  it('stops at the first value that fails, with what the values before it printed', async () => {
    const jq = await compile('.[0]');
    const caught = thrownBy(JqRuntimeError, () => jq.apply('[1]\n[2]\n{}\n[4]\n', true));
    expect(caught.message).toBe('--jq: Cannot index object with number (0)');
    expect(caught.output).toBe('1\n2\n');
  });

  it('passes what debug writes on to stderr, with API text neutralised', async () => {
    const err = new PassThrough();
    let written = '';
    err.on('data', (d) => (written += d));
    const jq = await compileJq('debug | .n', {}, false, err);
    const hostile = '\u001b]0;x\u0007\u009b1m';
    // Piped, the result is the string as it is; the debug line on stderr is neutralised.
    expect(jq.apply(JSON.stringify({ n: hostile }), false)).toBe(`${hostile}\n`);
    expect(written).toBe('["DEBUG:",{"n":"\\u001b]0;x\\u0007\\u009b1m"}]\n');
  });

  it('gives $ENV and env the environment it was given, without BO_TOKEN', async () => {
    const jq = await compile('[$ENV.GREETING, env.BO_TOKEN, ($ENV | has("HOME"))]');
    expect(jq.apply('null', false)).toBe('["hi",null,false]\n');
  });

  it('for people: JSON indented and coloured, strings with controls neutralised, escapes for the rest', async () => {
    const jq = await compile('.s, {s}', true);
    const out = jq.apply(JSON.stringify({ s: 'a\u001b[31mred\u202e\nline' }), false);
    expect(out).toBe(`ared\\u202e\nline\n{\n  \u001b[1;34m"s"\u001b[22;39m: \u001b[32m"a\\u001b[31mred\\u202e\\nline"\u001b[39m\n}\n`);
  });
});

describe('jq out of memory or recursing too deep', () => {
  // "x" * 1e9 asks for 1 GB at once: more than the module's 256 MiB, so it aborts at
  // once. (Written with `.`: jq folds `"x" * 1e9` while it compiles.)
  const greedy = 'if . == 1 then "x" * (. * 1e9) else . end';

  it('is an aborted run, with nothing printed by the WebAssembly runtime, and the engine never runs again', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const engine = await loadJqEngine(greedy, []);
      expect(engine.run('2')).toEqual({ stdout: '2\n', stderr: '', exitCode: 0 });
      expect(engine.run('1')).toEqual({ stdout: '', stderr: '', exitCode: -1, aborted: true });
      // Called again, this instance would answer 2 (its failed allocation left it whole):
      // dead, it is not called.
      expect(engine.run('2')).toEqual({ stdout: '', stderr: '', exitCode: -1, aborted: true });
      expect(printed).not.toHaveBeenCalled();
      expect(log).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      log.mockRestore();
    }
  });

  it('while the expression compiles (jq folds constants) is the same error, before any input', async () => {
    await expect(compileJq('"x" * 1e9', {}, false, new PassThrough())).rejects.toThrow(
      new JqRuntimeError('the filter ran out of memory or recursed too deep', ''),
    );
  });

  it('is the one --jq error, on this call and every later one', async () => {
    const jq = await compileJq(greedy, {}, false, new PassThrough());
    const message = '--jq: the filter ran out of memory or recursed too deep';
    expect(() => jq.apply('1', false)).toThrow(message);
    expect(() => jq.apply('2', false)).toThrow(message);
  });

  it('on JSON lines is the same error, after at most what the values before printed', async () => {
    const jq = await compileJq(greedy, {}, false, new PassThrough());
    const caught = thrownBy(JqRuntimeError, () => jq.apply('3\n1\n4\n', true));
    expect(caught.code).toBe('jq');
    expect(caught.message).toBe('--jq: the filter ran out of memory or recursed too deep');
    // What the value before printed is kept (jq writes a line at a time); nothing after.
    expect(caught.output).toBe('3\n');
  });

  it('a C stack that overflows (a trap in the WebAssembly code) is the same error', async () => {
    const jq = await compileJq('reduce range(100000) as $i (null; [.]) | tojson | length', {}, false, new PassThrough());
    expect(() => jq.apply('null', false)).toThrow('--jq: the filter ran out of memory or recursed too deep');
  });
});
