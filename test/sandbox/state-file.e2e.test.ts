// The state file (store.ts, state-file.ts): several processes writing one file lose
// nothing; a crash mid-write, a leftover temp file or a dead writer's lock leave a
// valid file; a failed transaction writes nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedState } from '../../src/sandbox/seed.js';
import { readState, writeStateAtomically } from '../../src/sandbox/state-file.js';
import { Store } from '../../src/sandbox/store.js';
import { startTestSandbox } from '../helpers/sandbox.js';

let dir: string;
let writer: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bo-state-'));
  writer = join(dir, 'store-writer.mjs');
  await build({
    entryPoints: [new URL('./support/store-writer.ts', import.meta.url).pathname],
    outfile: writer, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const params = { seed: 1, accounts: 20 };
const openFile = (file: string) => Store.file({ file, params, seeder: seedState });
const listNames = (file: string) =>
  Object.keys(JSON.parse(readFileSync(file, 'utf8')).records.EmailList ?? {});

function runWriter(file: string, tag: string, count: number, pad = 0) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, [writer, file, tag, String(count), String(pad)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out, err })),
  );
  const ready = new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
  return { child, exited, ready };
}

describe('concurrent writers', () => {
  it('three processes writing one file concurrently lose no write', async () => {
    const file = join(dir, 'concurrent.json');
    const writers = ['a', 'b', 'c'].map((tag) => runWriter(file, tag, 40));
    const results = await Promise.all(writers.map((w) => w.exited));
    for (const r of results) expect(r, r.err).toMatchObject({ code: 0 });
    const names = listNames(file);
    for (const tag of ['a', 'b', 'c']) {
      for (let i = 0; i < 40; i++) expect(names, `${tag}-${i}`).toContain(`${tag}-${i}`);
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('two stores in one process see each other\'s writes and keep both', async () => {
    const file = join(dir, 'two-stores.json');
    const a = await openFile(file);
    const b = await openFile(file);
    await a.transact((tx) => tx.put('EmailList', { Uid: 'from-a', _objectType: 'EmailList', Name: 'A' }));
    expect(await b.read((db) => db.get('EmailList', 'from-a')?.Name)).toBe('A');
    await b.transact((tx) => tx.put('EmailList', { Uid: 'from-b', _objectType: 'EmailList', Name: 'B' }));
    await a.transact((tx) => tx.put('EmailList', { Uid: 'from-a2', _objectType: 'EmailList', Name: 'A2' }));
    expect(listNames(file)).toEqual(expect.arrayContaining(['from-a', 'from-b', 'from-a2']));
  });
});

describe('crash safety', () => {
  it('a writer killed mid-write leaves a valid file, and its lock does not block the next writer', async () => {
    const file = join(dir, 'killed.json');
    for (let round = 0; round < 4; round++) {
      const w = runWriter(file, `k${round}`, 1000, 200_000);
      await w.ready;
      await new Promise((r) => setTimeout(r, 20 + round * 15));
      w.child.kill('SIGKILL');
      await w.exited;
      const state = JSON.parse(readFileSync(file, 'utf8'));
      expect(state.format).toBe('bo-sandbox/1');
      expect(Object.keys(state.records.EmailList)).toContain(`k${round}-0`);
    }
    const store = await openFile(file);
    const started = Date.now();
    await store.transact((tx) => tx.put('EmailList', { Uid: 'after-crash', _objectType: 'EmailList', Name: 'ok' }));
    // The killed writer's lock is taken over at once, not after it goes stale (30 s).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(listNames(file)).toContain('after-crash');
    expect(readdirSync(dir).filter((n) => n.startsWith('.killed.json.') && n.endsWith('.tmp'))).toEqual([]);
  });

  it('ignores and removes a temp file left by a dead writer', async () => {
    const file = join(dir, 'leftover.json');
    const store = await openFile(file);
    await store.transact((tx) => tx.put('EmailList', { Uid: 'kept', _objectType: 'EmailList', Name: 'kept' }));
    const temp = join(dir, '.leftover.json.999999.1.tmp');
    writeFileSync(temp, '{"format":"bo-sandbox/1", "truncat');
    const again = await openFile(file);
    expect(await again.read((db) => db.get('EmailList', 'kept')?.Name)).toBe('kept');
    expect(existsSync(temp)).toBe(false);
  });

  it('takes over a lock whose process is gone', async () => {
    const file = join(dir, 'stale-lock.json');
    const store = await openFile(file);
    writeFileSync(`${file}.lock`, `999999 ${Date.now()} x`);
    const started = Date.now();
    await store.transact((tx) => tx.put('EmailList', { Uid: 'after-lock', _objectType: 'EmailList', Name: 'x' }));
    // At once, not after the lock goes stale (30 s).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(listNames(file)).toContain('after-lock');
  });

  it('a transaction that throws writes nothing', async () => {
    const file = join(dir, 'throws.json');
    const store = await openFile(file);
    const before = readFileSync(file, 'utf8');
    await expect(
      store.transact((tx) => {
        tx.put('EmailList', { Uid: 'half', _objectType: 'EmailList', Name: 'half' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await store.read((db) => db.get('EmailList', 'half'))).toBeUndefined();
  });
});

describe('reading', () => {
  it('notices a write that kept the size and the timestamp (the version counter, not mtime)', async () => {
    const file = join(dir, 'same-size.json');
    const a = await openFile(file);
    await a.transact((tx) => tx.put('EmailList', { Uid: 'l1', _objectType: 'EmailList', Name: 'AAAA' }));
    const before = statSync(file);
    const old = readFileSync(file, 'utf8');
    const version = Number(/"version":(\d+)/.exec(old)![1]);
    expect(String(version + 1)).toHaveLength(String(version).length);
    const text = old.replace('"Name":"AAAA"', '"Name":"BBBB"').replace(`"version":${version},`, `"version":${version + 1},`);
    expect(text).not.toBe(old);
    expect(Buffer.byteLength(text)).toBe(before.size);
    writeFileSync(file, text);
    utimesSync(file, before.atime, before.mtime);
    expect(await a.read((db) => db.get('EmailList', 'l1')?.Name)).toBe('BBBB');
  });

  it('parses the file again only after another process changed it', async () => {
    const file = join(dir, 'reparse.json');
    const a = await openFile(file);
    const b = await openFile(file);
    const parse = vi.spyOn(JSON, 'parse');
    const bigParses = () => parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > 10_000).length;
    try {
      for (let i = 0; i < 10; i++) await a.read((db) => db.all('Account').length);
      await a.transact((tx) => tx.put('EmailList', { Uid: 'own-write', _objectType: 'EmailList', Name: 'x' }));
      await a.read((db) => db.all('Account').length);
      expect(bigParses()).toBe(0);
      await b.transact((tx) => tx.put('EmailList', { Uid: 'other-write', _objectType: 'EmailList', Name: 'y' }));
      const before = bigParses();
      expect(await a.read((db) => db.get('EmailList', 'other-write')?.Name)).toBe('y');
      await a.read((db) => db.all('Account').length);
      expect(bigParses() - before).toBe(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe('the layout: one kind of record a line, each parsed when first read', () => {
  const parsesOf = async <T>(fn: () => Promise<T>) => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const value = await fn();
      return { value, texts: parse.mock.calls.map(([text]) => String(text)) };
    } finally {
      parse.mockRestore();
    }
  };

  it('is one JSON value with every record, each kind on its own line', async () => {
    const file = join(dir, 'layout.json');
    const store = await openFile(file);
    await store.transact((tx) => tx.put('EmailList', { Uid: 'l1', _objectType: 'EmailList', Name: 'one' }));
    const text = readFileSync(file, 'utf8');
    const whole = JSON.parse(text);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\{"format":"bo-sandbox\/1","version":\d+,.*,"records":\{$/);
    expect(lines.at(-1)).toBe('}}');
    const kinds = lines.slice(1, -1).map((line) => /^,?"(\w+)":\{/.exec(line)![1]);
    expect(kinds.sort()).toEqual(Object.keys(whole.records).sort());
    expect(whole.records.EmailList.l1.Name).toBe('one');
    expect(Object.keys(whole.records.Account)).toHaveLength(params.accounts);
  });

  it('a store opened on it parses only the kinds a request reads', async () => {
    const file = join(dir, 'lazy.json');
    await openFile(file);
    const invoiceLine = readFileSync(file, 'utf8').split('\n').find((line) => /^,?"Invoice":/.test(line))!;
    const invoices = invoiceLine.slice(invoiceLine.indexOf(':') + 1);
    const { value, texts } = await parsesOf(async () => {
      const store = await openFile(file);
      return store.read((db) => db.all('Account').map((a) => a.Name));
    });
    expect(value).toHaveLength(params.accounts);
    expect(texts.some((t) => t.includes('"_objectType":"Account"'))).toBe(true);
    expect(texts).not.toContain(invoices);
    expect(texts.some((t) => t.includes('"_objectType":"Invoice"'))).toBe(false);
    // and what was never read is still there, whole, to read later
    const store = await openFile(file);
    expect(await store.read((db) => db.all('Invoice').length)).toBe(Object.keys(JSON.parse(invoices)).length);
  });

  it('a write keeps the text of the kinds it did not read, and another process reads it all back', async () => {
    const file = join(dir, 'keep.json');
    await openFile(file);
    const line = (text: string, kind: string) => text.split('\n').find((l) => new RegExp(`^,?"${kind}":`).test(l))!.replace(/^,/, '');
    const before = readFileSync(file, 'utf8');
    const store = await openFile(file);
    await store.transact((tx) => tx.put('EmailList', { Uid: 'kept', _objectType: 'EmailList', Name: 'kept' }));
    const after = readFileSync(file, 'utf8');
    expect(line(after, 'Invoice')).toBe(line(before, 'Invoice'));
    expect(line(after, 'EmailList')).not.toBe(line(before, 'EmailList'));
    expect(JSON.parse(after).records.Invoice).toEqual(JSON.parse(before).records.Invoice);
    const other = await openFile(file);
    expect(await other.read((db) => db.get('EmailList', 'kept')?.Name)).toBe('kept');
  });

  it('a copy of what the loader returns neither parses every kind nor loses the text of the kinds not read', async () => {
    const file = join(dir, 'copies.json');
    await openFile(file);
    const { value: state, texts: read } = await parsesOf(async () => readState(file)!);
    expect(read.some((t) => t.includes('"_objectType"'))).toBe(false);
    // A spread or a structuredClone of the records copies no kind and parses none;
    // the copy has no loader to be mistaken for one.
    const { value: copies, texts } = await parsesOf(async () => [{ ...state.records }, structuredClone(state.records)]);
    expect(texts).toEqual([]);
    for (const copy of copies) {
      expect(Object.keys(copy)).toEqual([]);
      expect(() => (copy as unknown as typeof state.records).kind('Account')).toThrow(TypeError);
    }
    // A spread state keeps the loader itself: one kind parsed once, on its first call…
    const spread = { ...state };
    const { value: accounts, texts: once } = await parsesOf(async () => [spread.records.kind('Account'), state.records.kind('Account')]);
    expect(once).toHaveLength(1);
    expect(accounts[0]).toBe(accounts[1]);
    // …and the kinds never read written back as the very text they were read as.
    const line = (text: string, kind: string) => text.split('\n').find((l) => new RegExp(`^,?"${kind}":`).test(l))!.replace(/^,/, '');
    const copyFile = join(dir, 'copies-written.json');
    writeStateAtomically(copyFile, spread);
    const before = readFileSync(file, 'utf8');
    const after = readFileSync(copyFile, 'utf8');
    for (const kind of ['Invoice', 'Account', 'EmailList']) expect(line(after, kind), kind).toBe(line(before, kind));
    expect(JSON.parse(after)).toEqual(JSON.parse(before));
  });

  it('still reads a file of one line (an earlier layout, or an edit)', async () => {
    const file = join(dir, 'one-line.json');
    await openFile(file);
    const state = JSON.parse(readFileSync(file, 'utf8'));
    state.records.Account[Object.keys(state.records.Account)[0]!].Name = 'Edited by hand';
    writeFileSync(file, JSON.stringify(state));
    const store = await openFile(file);
    expect(await store.read((db) => db.all('Account').some((a) => a.Name === 'Edited by hand'))).toBe(true);
    expect(await store.read((db) => db.all('Invoice').length)).toBe(Object.keys(state.records.Invoice).length);
  });
});

describe('the activity log of a file store', () => {
  it('appends reads without rewriting the state, is shared by processes, and reset clears it', async () => {
    const file = join(dir, 'activity.json');
    const a = await startTestSandbox({ store: await openFile(file) });
    const b = await startTestSandbox({ store: await openFile(file) });
    try {
      const version = () => JSON.parse(readFileSync(file, 'utf8')).version;
      const before = version();
      await a.api('GET', '/email/lists');
      await b.api('GET', '/email/lists?limit=1');
      await a.api('GET', '/email/lists?donotlog=1');
      expect(version()).toBe(before);
      const paths = (await b.activity()).map((e) => `${e.method} ${e.path} ${e.status}`);
      expect(paths).toEqual(['GET /api/v1/email/lists 200', 'GET /api/v1/email/lists 200']);
      await a.api('POST', '/email/lists', { body: { Name: 'Logged write' } });
      expect(version()).toBe(before + 1);
      expect((await b.activity()).map((e) => e.method)).toEqual(['GET', 'GET', 'POST']);
      await b.reset();
      expect(await a.activity()).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('skips a torn last line left by a crash mid-append', async () => {
    const file = join(dir, 'torn.json');
    const sb = await startTestSandbox({ store: await openFile(file) });
    try {
      await sb.api('GET', '/email/lists');
      writeFileSync(`${file}.activity.jsonl`, readFileSync(`${file}.activity.jsonl`, 'utf8') + '{"method":"GE');
      await sb.api('GET', '/email/lists?limit=2');
      expect((await sb.activity()).map((e) => e.path)).toEqual(['/api/v1/email/lists', '/api/v1/email/lists']);
    } finally {
      await sb.close();
    }
  });
});
