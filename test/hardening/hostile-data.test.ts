// Hostile data, generated: strings from the API built from terminal escape sequences
// (CSI, OSC, DCS, 8-bit C1 such as U+009B, whole and cut short), bidirectional
// overrides and isolates, zero-width and other invisible characters, random code units
// (lone surrogates included) and 100 KB values, in values and in property names. Text
// output (tables, record views, tab-separated rows, error lines, login messages and
// prompts) shows none of them raw and keeps its shape (one row a record, one tab a
// field), batch outcome lines and the --verbose trace included; --json and --jsonl
// write them as \u escapes and parse back to what the API sent. Keys written with escapes
// (escaped-keys.ts) come out as the server's keys in every output mode.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/auth/prompter-types.js';
import { InterruptedError } from '../../src/errors.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { UNSAFE_IN_JSON, UNSAFE_IN_TEXT, allCases } from '../output/hostile-text.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';
import { STACK_OR_JS_MESSAGE, report } from './fuzz-settings.js';
import { escapedPage, type EscapedPage } from './escaped-keys.js';
import { readJson } from '../../src/api/json-reader.js';
import { neutralise } from '../../src/api/neutralise.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
const tally = { cases: 0, strings: 0, bytes: 0, leaks: 0 };
afterAll(async () => {
  await server?.close();
  report('hostile data', `${tally.cases} runs showing ${tally.strings} generated hostile strings (${Math.round(tally.bytes / 1024)} KB) ` +
    `in tables, record views, TSV, JSON, error lines, batch outcomes, the --verbose trace and login prompts; ${tally.leaks} leaks`);
});

const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...allCases.map((c) => c.raw)) },
  // Sequences cut short or run together: an introducer with no end, an end with no start.
  { weight: 2, arbitrary: fc.constantFrom('\u001b[', '\u001b]8;;', '\u001bP', '\u001b_', '\u009b', '\u009d', '\u0090', '\u001b\\', '\u0007', '\u009c', '\u001b[38;5;', '\u001b]0;') },
  { weight: 2, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)), maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 2 }) },
  { weight: 3, arbitrary: fc.constantFrom('a', 'Z', ' ', 'é', '漢字', '😀', 'pwned', '=cmd', ',', '"', "'") },
);
const hostile = fc.array(fragment, { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));
/** Mostly short; one in eight a 100 KB value made of the same. */
const value = fc.oneof(
  { weight: 7, arbitrary: hostile },
  { weight: 1, arbitrary: hostile.map((h) => (h + '.').repeat(Math.ceil(100_000 / (h.length + 1))).slice(0, 100_000)) },
);

const recordArb = fc.record({ name: value, label: hostile, currency: hostile, key: hostile, extra: value });
const toRecord = (r: { name: string; label: string; currency: string; key: string; extra: string }, i: number) => ({
  Uid: `acc_${i}`,
  Name: r.name,
  AccountStage: 1,
  AccountStageLabel: r.label,
  Currency: r.currency,
  Created: '2026-01-02T03:04:05Z',
  [`K:${r.key}`]: r.extra,
});

function count(strings: string[]) {
  tally.cases++;
  tally.strings += strings.length;
  tally.bytes += strings.reduce((n, s) => n + s.length, 0);
}

/** Text a terminal would show: nothing raw, no escape introducer of either width. */
function expectSafe(text: string, shown: string) {
  const leak = UNSAFE_IN_TEXT.exec(text);
  if (leak) tally.leaks++;
  expect(leak?.[0].codePointAt(0)?.toString(16), `${shown}\nraw character in text output`).toBeUndefined();
}

const runs = fuzzRuns(60);
const opts = (seed: number) => ({ seed, numRuns: runs, endOnFailure: true });

describe('hostile data, generated, in every output', () => {
  it('tab-separated rows: safe, one line a record, five fields a line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 4 }), async (gen) => {
        const items = gen.map(toRecord);
        count(gen.flatMap((g) => Object.values(g)));
        server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items }));
        const r = await runBo(['accounts', 'list'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }) });
        const shown = `records ${JSON.stringify(items).slice(0, 400)}\nstderr ${r.stderr.slice(0, 300)}`;
        expect(r.code, shown).toBe(0);
        expectSafe(r.stdout, shown);
        const lines = r.stdout.replace(/\n$/, '').split('\n');
        expect(lines, shown).toHaveLength(items.length);
        lines.forEach((line, i) => {
          const fields = line.split('\t');
          expect(fields, shown).toHaveLength(5);
          expect(fields[0], shown).toBe(`acc_${i}`);
        });
      }),
      opts(1321),
    );
  }, 300_000);

  it('TTY tables: safe, one row a record between the borders', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 4 }), async (gen) => {
        const items = gen.map(toRecord);
        count(gen.flatMap((g) => Object.values(g)));
        server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items }));
        const r = await runBo(['--no-color', 'accounts', 'list'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }), stdoutIsTTY: true });
        const shown = `records ${JSON.stringify(items).slice(0, 400)}`;
        expect(r.code, shown).toBe(0);
        expectSafe(r.stdout, shown);
        const rows = r.stdout.split('\n').filter((l) => l.startsWith('│ acc_'));
        expect(rows.map((l) => l.slice(2, 7)), shown).toEqual(items.map((_, i) => `acc_${i}`));
      }),
      opts(1322),
    );
  }, 300_000);

  it('record views, piped and on a TTY: keys and values safe, one tab a line when piped', async () => {
    await fc.assert(
      fc.asyncProperty(recordArb, fc.boolean(), async (gen, tty) => {
        const record = { ...toRecord(gen, 0), Uid: 'acc_h' };
        count(Object.values(gen));
        server.script(reply.json(200, { items: [record] }));
        const r = await runBo(['--no-color', 'accounts', 'get', 'acc_h'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }), stdoutIsTTY: tty });
        const shown = `record ${JSON.stringify(record).slice(0, 400)}\ntty ${tty}`;
        expect(r.code, shown).toBe(0);
        expectSafe(r.stdout, shown);
        if (!tty) {
          const lines = r.stdout.replace(/\n$/, '').split('\n');
          for (const line of lines) expect(line.split('\t'), `${shown}\n${line.slice(0, 200)}`).toHaveLength(2);
          expect(lines.length, shown).toBe(Object.keys(record).length);
        }
      }),
      opts(1323),
    );
  }, 300_000);

  it('--json and --jsonl: no raw control, bidirectional or invisible character; parse back to what the API sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 3 }), fc.boolean(), async (gen, lines) => {
        const items = gen.map(toRecord);
        count(gen.flatMap((g) => Object.values(g)));
        server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items }));
        const r = await runBo([lines ? '--jsonl' : '--json', 'accounts', 'list'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }) });
        const shown = `records ${JSON.stringify(items).slice(0, 400)}`;
        expect(r.code, shown).toBe(0);
        const leak = UNSAFE_IN_JSON.exec(r.stdout);
        if (leak) tally.leaks++;
        expect(leak?.[0], shown).toBeUndefined();
        expect(r.stdout, shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
        // Read with bo's reader: the Node running the suite may misread escaped keys (hostile keys have backslashes).
        const parsed = lines ? r.stdout.trimEnd().split('\n').map((l) => readJson(l)) : readJson(r.stdout);
        expect(parsed, shown).toEqual(items);
      }),
      opts(1324),
    );
  }, 300_000);

  it('error lines: the server error_description shown safe, on one line, no stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(value, fc.constantFrom(400, 409, 500, 404, 403), fc.boolean(), async (description, status, asHtml) => {
        count([description]);
        server.script(
          asHtml
            ? reply.text(status, `<html><head><title>${description}</title></head><body>x</body></html>`, { 'content-type': 'text/html' })
            : reply.json(status, { error: 'validation_failed', error_description: description }),
        );
        const r = await runBo(['--max-retries', '0', 'accounts', 'list'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }) });
        const shown = `description ${JSON.stringify(description).slice(0, 300)}\nstderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
        expect([1, 3, 4], shown).toContain(r.code);
        expectSafe(r.stderr, shown);
        expect(r.stderr, shown).not.toMatch(STACK_OR_JS_MESSAGE);
        expect(r.stderr.split('\n').filter((l) => l.startsWith('error:')), shown).toHaveLength(1);
        // The message is cut to a few hundred characters, never a 100 KB line.
        expect(r.stderr.length, shown).toBeLessThan(2000);
      }),
      opts(1325),
    );
  }, 300_000);
});

describe('escaped keys, generated, in every output mode (in process, on the Node running the suite)', () => {
  // Each case's SchemaLessData starts with a key of its own: a fresh V8 map, as the bug needs.
  let slots = 0;
  const page = escapedPage(() => `Slot${slots++}`);
  const env = () => testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' });
  const fields = ['--fields', 'Uid,SchemaLessData'];
  const serve = (p: EscapedPage) =>
    server.fallback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(p.body);
    });
  const shownOf = (p: EscapedPage, out: string) => `keys ${JSON.stringify(p.keys)}\nbody ${p.body.slice(0, 600)}\nout ${JSON.stringify(out.slice(0, 600))}`;

  it('tab-separated rows, CSV and the table on a terminal: each cell reads back as the server\'s SchemaLessData', async () => {
    await fc.assert(
      fc.asyncProperty(page, async (p) => {
        serve(p);
        const tsv = await runBo(['accounts', 'list', ...fields], { env: env() });
        const csv = await runBo(['--csv', 'accounts', 'list', ...fields], { env: env() });
        const tty = await runBo(['--no-color', 'accounts', 'list', ...fields], { env: env(), stdoutIsTTY: true, columns: 400 });
        server.fallback(undefined);
        for (const r of [tsv, csv, tty]) expect(r.code, shownOf(p, r.stderr)).toBe(0);
        const tsvCells = tsv.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
        expect(tsvCells.map((c) => c[0]), shownOf(p, tsv.stdout)).toEqual(p.records.map((r) => r.Uid));
        expect(tsvCells.map((c) => readJson(c[1]!)), shownOf(p, tsv.stdout)).toEqual(p.records.map((r) => r.SchemaLessData));
        const csvRows = csv.stdout.split('\r\n').slice(1, -1);
        const csvCell = (row: string) => {
          const cell = row.slice(row.indexOf(',') + 1);
          return cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell;
        };
        expect(csvRows.map((row) => readJson(csvCell(row))), shownOf(p, csv.stdout)).toEqual(p.records.map((r) => r.SchemaLessData));
        const ttyRows = tty.stdout.split('\n').filter((l) => l.startsWith('│ acc_'));
        expect(ttyRows.map((l) => readJson(l.split(' │ ')[1]!.replace(/ *│$/, ''))), shownOf(p, tty.stdout)).toEqual(p.records.map((r) => r.SchemaLessData));
      }),
      opts(1330),
    );
  }, 300_000);

  it('--json, --jsonl and the record view: the server\'s keys, each record read after the others', async () => {
    await fc.assert(
      fc.asyncProperty(page, fc.nat(), async (p, pick) => {
        serve(p);
        const json = await runBo(['--json', 'accounts', 'list'], { env: env() });
        const jsonl = await runBo(['--jsonl', 'accounts', 'list', ...fields], { env: env() });
        // The record asked for is the server's last, as `get` reads the page its query gives.
        const i = p.records.length - 1 - (pick % p.records.length);
        const uid = p.records[i]!.Uid;
        const piped = await runBo(['accounts', 'get', uid, ...fields], { env: env() });
        const tty = await runBo(['--no-color', 'accounts', 'get', uid], { env: env(), stdoutIsTTY: true, columns: 400 });
        server.fallback(undefined);
        for (const r of [json, jsonl, piped, tty]) expect(r.code, shownOf(p, r.stderr)).toBe(0);
        expect(readJson(json.stdout), shownOf(p, json.stdout)).toEqual(p.records);
        expect(jsonl.stdout.trimEnd().split('\n').map((l) => readJson(l)), shownOf(p, jsonl.stdout)).toEqual(p.records);
        expect(piped.stdout, shownOf(p, piped.stdout)).toMatch(/^Uid\tacc_\d+\nSchemaLessData\t/);
        expect(readJson(piped.stdout.split('\n')[1]!.split('\t')[1]!), shownOf(p, piped.stdout)).toEqual(p.records[i]!.SchemaLessData);
        // On a terminal each nested key has its row, shown as neutralise() shows any API text.
        const rows = tty.stdout.split('\n').filter((l) => l.startsWith('│   ')).map((l) => l.split(' │ ')[0]!.slice(4).trimEnd());
        expect(rows, shownOf(p, tty.stdout)).toEqual(Object.keys(p.records[i]!.SchemaLessData).map((k) => neutralise(k).trimEnd()));
      }),
      opts(1331),
    );
  }, 300_000);
});

describe('hostile data in batch outcomes and in the --verbose trace', () => {
  it('batch outcome lines: one a record, three fields, the server messages safe', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 6 }), async (descriptions) => {
        count(descriptions);
        let i = 0;
        server.fallback((req, res, body) => reply.json(400, { error: 'validation_failed', error_description: descriptions[i++ % descriptions.length] })(req, res, body));
        const uids = descriptions.map((_, k) => `acc_${k}`);
        const r = await runBo(['accounts', 'extend-trial', '-', '--to', '2027-01-31'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }), stdin: uids.join('\n') + '\n' });
        server.fallback(undefined);
        const shown = `descriptions ${JSON.stringify(descriptions).slice(0, 400)}\nstdout ${JSON.stringify(r.stdout.slice(0, 400))}`;
        expect(r.code, shown).toBe(1);
        expectSafe(r.stdout, shown);
        expectSafe(r.stderr, shown);
        const lines = r.stdout.replace(/\n$/, '').split('\n');
        expect(lines.map((l) => l.split('\t')[0]).sort(), shown).toEqual([...uids].sort());
        for (const line of lines) expect(line.split('\t'), shown).toHaveLength(3);
      }),
      opts(1328),
    );
  }, 300_000);

  it('--verbose: response headers and bodies from the server are traced safe', async () => {
    // A header value may carry 8-bit bytes (Node sends them as latin1): C1 controls included.
    const headerValue = fc.string({ unit: fc.constantFrom('\u009b', '\u009d', '\u0085', '2J', ';', 'a', ' ', '\u00e9'), maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 2 }), headerValue, async (gen, header) => {
        const items = gen.map(toRecord);
        count([...gen.flatMap((g) => Object.values(g)), header]);
        server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: items.length }, items }, { 'x-note': header }));
        const r = await runBo(['--verbose', 'accounts', 'list'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }) });
        const shown = `records ${JSON.stringify(items).slice(0, 300)}\nheader ${JSON.stringify(header)}\nstderr ${JSON.stringify(r.stderr.slice(0, 600))}`;
        expect(r.code, shown).toBe(0);
        expectSafe(r.stderr, shown);
        expectSafe(r.stdout, shown);
      }),
      opts(1329),
    );
  }, 300_000);
});

/** A prompter that records every message and choice it is shown, answers a code, then stops like Ctrl-C. */
function recordingPrompter(seen: string[]): Prompter {
  let asked = 0;
  const next = () => {
    if (++asked > 2) throw new InterruptedError();
  };
  return {
    input: async (message) => (next(), seen.push(message), '123456'),
    password: async (message) => (next(), seen.push(message), 'pw'),
    select: async (message, choices) => {
      next();
      seen.push(message, ...choices.flatMap((c) => [c.name, c.description ?? '']));
      return choices[0]!.value;
    },
    confirm: async (message) => (next(), seen.push(message), false),
  };
}

describe('hostile data in the login flow: masked_destination and error_description', () => {
  const challenge = (masked: string) =>
    reply.json(202, {
      two_factor_required: true,
      challenge_token: 'ch_1',
      mechanism: 'Email',
      masked_destination: masked,
      expires_in: 300,
      available_mechanisms: ['Email', 'Totp'],
      recovery_codes_available: true,
    });

  it('without a terminal: the message naming where the code went is safe', async () => {
    await fc.assert(
      fc.asyncProperty(value, async (masked) => {
        count([masked]);
        server.script(challenge(masked));
        const r = await runBo(['login', '--insecure-storage', '--username', 'ada@example.com', '--password-stdin'], { env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }), stdin: 'pw\n' });
        const shown = `masked ${JSON.stringify(masked).slice(0, 300)}\nstderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
        expect(r.code, shown).toBe(4);
        expectSafe(r.stderr, shown);
        expect(r.stderr.split('\n').filter((l) => l.startsWith('error:')), shown).toHaveLength(1);
      }),
      opts(1326),
    );
  }, 300_000);

  it('at the prompts: what they say and the errors between them are safe', async () => {
    await fc.assert(
      fc.asyncProperty(value, value, async (masked, description) => {
        count([masked, description]);
        server.script(challenge(masked), reply.json(400, { error: 'invalid_grant', error_description: description }));
        server.fallback(reply.json(400, { error: 'invalid_grant', error_description: description }));
        const seen: string[] = [];
        const r = await runBo(['login', '--insecure-storage', '--username', 'ada@example.com'], {
          env: testEnv(server, { BO_API_KEY: 'key-data', BO_API_SECRET: 'secret-data' }),
          stdinIsTTY: true,
          stderrIsTTY: true,
          prompter: recordingPrompter(seen),
        });
        server.fallback(undefined);
        const shown = `masked ${JSON.stringify(masked).slice(0, 200)}\ndescription ${JSON.stringify(description).slice(0, 200)}\nstderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
        expect(r.code, shown).toBe(130);
        expect(seen.length, shown).toBeGreaterThan(0);
        expectSafe(r.stderr, shown);
        for (const message of seen) expectSafe(message, `${shown}\nprompt ${JSON.stringify(message.slice(0, 200))}`);
      }),
      opts(1327),
    );
  }, 300_000);
});
