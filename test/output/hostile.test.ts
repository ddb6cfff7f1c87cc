// Hostile API text in every output mode: values and property names carrying escape
// sequences, controls, bidirectional and invisible characters, served by a recording
// test server. Text output shows them neutralised (sequences dropped whole, the rest
// visibly escaped, joiners kept); JSON output escapes them and parses back unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { UNSAFE_IN_JSON, UNSAFE_IN_TEXT, allCases, escapedCases } from './hostile-text.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

// A tab after each case ends any sequence that would swallow the next character; text
// output shows it as a space.
const value = (i: number) => `v${i}:${allCases[i]!.raw}\t.`;
const shownValue = (i: number) => `v${i}:${allCases[i]!.shown} .`;
const key = (i: number) => `K${i}:${allCases[i]!.raw}\t.`;
const shownKey = (i: number) => `K${i}:${allCases[i]!.shown} .`;

const listed = allCases.map((_, i) => ({
  Uid: `acc_${i}`,
  Name: value(i),
  AccountStage: 1,
  AccountStageLabel: 'Demo',
  Currency: 'USD',
  Created: '2026-01-02T03:04:05Z',
  [key(i)]: value(i),
}));
const page = { metadata: { limit: 100, offset: 0, total: listed.length }, items: listed };
const one = { Uid: 'acc_h', Name: 'Hostile', ...Object.fromEntries(allCases.map((_, i) => [key(i), value(i)])) };

function expectSafeText(text: string) {
  expect(text).not.toMatch(UNSAFE_IN_TEXT);
  expect(text).not.toMatch(/pwned|\]0;|\[2J|\[31/);
}

describe('hostile API text in text output', () => {
  it('piped TSV rows show every class neutralised', async () => {
    server.script(reply.json(200, page));
    const r = await runBo(['accounts', 'list'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expectSafeText(r.stdout);
    const lines = r.stdout.split('\n');
    allCases.forEach((c, i) => {
      expect(lines[i], c.name).toBe([`acc_${i}`, shownValue(i), '1 Demo', 'USD', '2026-01-02T03:04:05Z'].join('\t'));
    });
  });

  it('TTY table cells show every class neutralised', async () => {
    server.script(reply.json(200, page));
    const r = await runBo(['--no-color', 'accounts', 'list'], { env: testEnv(server), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expectSafeText(r.stdout);
    allCases.forEach((c, i) => expect(r.stdout, c.name).toContain(`│ ${shownValue(i)}`));
  });

  it('the piped record view neutralises property names as well as values', async () => {
    server.script(reply.json(200, { items: [one] }));
    const r = await runBo(['accounts', 'get', 'acc_h'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expectSafeText(r.stdout);
    const lines = r.stdout.split('\n');
    allCases.forEach((c, i) => expect(lines, c.name).toContain(`${shownKey(i)}\t${shownValue(i)}`));
  });

  it('the TTY record view neutralises property names as well as values', async () => {
    server.script(reply.json(200, { items: [one] }));
    const r = await runBo(['--no-color', 'accounts', 'get', 'acc_h'], { env: testEnv(server), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expectSafeText(r.stdout);
    allCases.forEach((c, i) => expect(r.stdout, c.name).toMatch(new RegExp(`│ ${escape(shownKey(i))} +│ ${escape(shownValue(i))} +│`)));
  });

  it('error lines show bidirectional, invisible and tag characters escaped and no control raw', async () => {
    for (const c of escapedCases) {
      server.script(reply.json(400, { error: 'validation_failed', error_description: `bad ${c.raw} name` }));
      const r = await runBo(['accounts', 'list'], { env: testEnv(server) });
      expect(r.code, c.name).toBe(1);
      expect(r.stderr, c.name).not.toMatch(UNSAFE_IN_TEXT);
      expect(r.stderr.split('\n')[0], c.name).toMatch(/^error: /);
      // The HTTP layer already turns C0/C1 controls and Unicode spaces (U+FEFF, U+2028/9)
      // into plain spaces; everything else must arrive visibly escaped.
      if (c.raw.codePointAt(0)! > 0x9f && !/\s/.test(c.raw)) expect(r.stderr.split('\n')[0], c.name).toContain(`bad ${c.shown} name`);
    }
  });
});

describe('hostile API text in JSON output', () => {
  it('--json (a list) escapes them and parses back to the API records', async () => {
    server.script(reply.json(200, page));
    const r = await runBo(['--json', 'accounts', 'list'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(r.stdout).toContain('\\u202e');
    expect(r.stdout).toContain('\\u009b');
    expect(JSON.parse(r.stdout)).toEqual(listed);
  });

  it('--jsonl escapes them from a page written in ASCII with \\u escapes too (no fast path for it)', async () => {
    const ascii = JSON.stringify(page).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(ascii).toMatch(/^[\x00-\x7e]*$/);
    server.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ascii);
    });
    const r = await runBo(['--jsonl', 'accounts', 'list'], { env: testEnv(server) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(r.stdout).toContain('\\u202e');
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(listed);
  });

  it('--jsonl escapes them and each line parses back to its record', async () => {
    server.script(reply.json(200, page));
    const r = await runBo(['--jsonl', 'accounts', 'list'], { env: testEnv(server) });
    expect(r.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(listed);
  });

  it('--json and --jsonl (one record) escape keys and values and parse back', async () => {
    for (const flag of ['--json', '--jsonl']) {
      server.script(reply.json(200, { items: [one] }));
      const r = await runBo([flag, 'accounts', 'get', 'acc_h'], { env: testEnv(server) });
      expect(r.code, flag).toBe(0);
      expect(r.stdout, flag).not.toMatch(UNSAFE_IN_JSON);
      expect(JSON.parse(r.stdout), flag).toEqual(one);
    }
  });

  it('bo api prints the body escaped, with and without --paginate', async () => {
    server.script(reply.json(200, page));
    const raw = await runBo(['api', '/crm/accounts'], { env: testEnv(server) });
    expect(raw.code).toBe(0);
    expect(raw.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(JSON.parse(raw.stdout)).toEqual(page);
    server.script(reply.json(200, page));
    const paged = await runBo(['api', '/crm/accounts', '--paginate'], { env: testEnv(server) });
    expect(paged.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(JSON.parse(paged.stdout)).toEqual(listed);
    server.script(reply.json(200, page));
    const lines = await runBo(['--jsonl', 'api', '/crm/accounts', '--paginate'], { env: testEnv(server) });
    expect(lines.stdout).not.toMatch(UNSAFE_IN_JSON);
    expect(lines.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(listed);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
