// Under a locale that is not UTF-8 (LANG=C) the table's borders and ellipsis fall back
// to ASCII, in lists and in the record view; a UTF-8 locale keeps the box drawing. The
// locale is the first non-empty of LC_ALL, LC_CTYPE and LANG.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symbols, unicodeLocale } from '../../src/output/symbols.js';
import { testEnv } from '../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runBo } from '../helpers/run-bo.js';
import { runTty } from './tty-run.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const long = 'A very long account name that cannot fit in a narrow terminal at all';
const account = { Uid: 'acc_1', Name: long, AccountStage: 2, AccountStageLabel: 'Active', Currency: 'USD', Created: '2026-01-02T03:04:05Z' };
const page = reply.json(200, { metadata: { limit: 100, offset: 0, total: 1 }, items: [account] });

describe('tables under the locale', () => {
  it('LANG=C: ASCII borders and ~ for a cut cell', async () => {
    server.script(page);
    const r = await runTty(['accounts', 'list'], { env: testEnv(server, { NO_COLOR: '1', LANG: 'C' }), columns: 60 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\+-+\+-+\+-+\+-+\+-+\+$/);
    // The header's zone stays whole; its name is cut first (`~` here).
    expect(lines[1]).toMatch(/^\| Uid +\| Name +\| Stage +\| Currency +\| Cr\S* \(UTC[+-]\d\d:\d\d\) +\|$/);
    expect(lines[3]).toMatch(/^\| acc_1 \| A very[^|]*~ \|/);
    expect(r.stdout).not.toMatch(/[^\x00-\x7f]/);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
  });

  it('a UTF-8 locale keeps box drawing and …', async () => {
    server.script(page);
    const r = await runTty(['accounts', 'list'], { env: testEnv(server, { NO_COLOR: '1', LANG: 'en_US.UTF-8' }), columns: 60 });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌─+┬/);
    expect(lines[3]).toMatch(/^│ acc_1 │ A very[^│]*… │/);
  });

  it('the record view too', async () => {
    server.script(reply.json(200, { metadata: { limit: 100, offset: 0, total: 1 }, items: [account] }));
    const r = await runTty(['accounts', 'get', 'acc_1'], { env: testEnv(server, { NO_COLOR: '1', LC_ALL: 'C', LANG: 'en_US.UTF-8' }), columns: 40 });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^\+-+\+-+\+$/);
    expect(r.stdout).toContain('| Name ');
    expect(r.stdout).toMatch(/~ \|\n/);
    expect(r.stdout).not.toMatch(/[^\x00-\x7f]/);
  });
});

describe('the locale in effect', () => {
  it('is the first non-empty of LC_ALL, LC_CTYPE, LANG; none set counts as UTF-8', () => {
    expect(unicodeLocale({ LANG: 'C' })).toBe(false);
    expect(unicodeLocale({ LANG: 'POSIX' })).toBe(false);
    expect(unicodeLocale({ LANG: 'en_US.utf8' })).toBe(true);
    expect(unicodeLocale({ LC_ALL: 'en_US.UTF-8', LC_CTYPE: 'C', LANG: 'C' })).toBe(true);
    expect(unicodeLocale({ LC_CTYPE: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(unicodeLocale({ LC_ALL: '', LC_CTYPE: '', LANG: 'C' })).toBe(false);
    expect(unicodeLocale({})).toBe(true);
    expect(symbols({ LANG: 'C' })).toMatchObject({ ok: '+', fail: 'x', ellipsis: '~', barDone: '#' });
    expect(symbols({ LANG: 'C.UTF-8' })).toMatchObject({ ok: '✔', fail: '✘', ellipsis: '…', barDone: '█' });
  });
});

describe('bo help environment', () => {
  it('names the locale variables and BO_NO_PROGRESS with what they change', async () => {
    const r = await runBo(['help', 'environment']);
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(/LC_ALL, LC_CTYPE, LANG the locale, first set wins: when it is not UTF-8 \(LANG=C\), marks, table borders, boxes and the progress line fall back to ASCII/);
    expect(text).toMatch(/BO_NO_PROGRESS 1: no progress line on stderr during long work \(--all, bo api --paginate, batches from stdin\)/);
  });
});
