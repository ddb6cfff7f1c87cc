// A code the API sends with its label beside it (AccountStage and AccountStageLabel)
// shows one way on a terminal: `2 Trialing`, as the Stage column of `accounts list`
// shows it. --fields naming AccountStage on a terminal table also asks for the label
// (output/columns.ts labelledFields); piped output, CSV and JSON ask for and print
// exactly the fields given. In process; the built binary on a pseudo-terminal:
// test/e2e/filter-fields-binary.test.ts.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../helpers/test-env.js';
import { runBo, type RunBoOptions } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let uid: string;
/** The stage of `uid` as the sandbox stored it, as a terminal shows it. */
let stage: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  uid = sb.fixtures.accounts[0]!;
  const account = (await sb.record<{ AccountStage: number; AccountStageLabel: string }>('Account', uid))!;
  stage = `${account.AccountStage} ${account.AccountStageLabel}`;
});
afterAll(() => sb.close());

/** bo with --verbose: its exit code, stdout (escapes removed) and the fields parameter of its one GET. */
async function traced(argv: string[], options: RunBoOptions = {}) {
  const r = await runBo(['--verbose', '--no-color', ...argv], { env: testEnv(sb), columns: 120, ...options });
  const gets = [...r.stderr.matchAll(/^> GET (\S+)$/gm)].map((m) => new URL(m[1]!).searchParams.get('fields'));
  expect(gets, r.stderr).toHaveLength(1);
  return { code: r.code, stdout: stripVTControlCharacters(r.stdout), fields: gets[0] };
}

describe('accounts get --fields AccountStage', () => {
  it('on a terminal: asks for the label too and shows the stage as lists do, with no row of its own', async () => {
    const r = await traced(['accounts', 'get', uid, '--fields', 'AccountStage'], { stdoutIsTTY: true });
    expect(r).toMatchObject({ code: 0, fields: 'AccountStage,AccountStageLabel' });
    expect(r.stdout).toMatch(new RegExp(`AccountStage\\s+│?\\s*${stage}\\s`));
    expect(r.stdout).not.toContain('AccountStageLabel');
  });

  it('piped, as CSV and as JSON: exactly the field given', async () => {
    const number = stage.split(' ')[0];
    const piped = await traced(['accounts', 'get', uid, '--fields', 'AccountStage']);
    expect(piped).toEqual({ code: 0, fields: 'AccountStage', stdout: `Uid\t${uid}\nAccountStage\t${number}\n` });
    const csv = await traced(['--csv', 'accounts', 'get', uid, '--fields', 'AccountStage'], { stdoutIsTTY: true });
    expect(csv).toEqual({ code: 0, fields: 'AccountStage', stdout: `Uid,AccountStage\r\n${uid},${number}\r\n` });
    const json = await traced(['--json', 'accounts', 'get', uid, '--fields', 'AccountStage'], { stdoutIsTTY: true });
    expect(json.fields).toBe('AccountStage');
    expect(JSON.parse(json.stdout)).toEqual({ Uid: uid, AccountStage: Number(number) });
  });

  it('on a terminal with the label asked for as well: asked for once, the stage shown whole', async () => {
    const r = await traced(['accounts', 'get', uid, '--fields', 'AccountStageLabel,AccountStage'], { stdoutIsTTY: true });
    expect(r).toMatchObject({ code: 0, fields: 'AccountStageLabel,AccountStage' });
    expect(r.stdout).toMatch(new RegExp(`AccountStage\\s+│?\\s*${stage}\\s`));
  });
});

describe('accounts list --fields Name,AccountStage', () => {
  it('on a terminal: the AccountStage column reads as the default Stage column', async () => {
    const args = ['accounts', 'list', '--limit', '5'];
    const defaults = await traced(args, { stdoutIsTTY: true });
    const asked = await traced([...args, '--fields', 'Name,AccountStage'], { stdoutIsTTY: true });
    expect(asked).toMatchObject({ code: 0, fields: 'Name,AccountStage,AccountStageLabel' });
    // The Stage cells of the default table, row by row, are the AccountStage cells here.
    const cells = (screen: string, column: number) =>
      screen.split('\n').filter((l) => l.includes('acc_')).map((l) => l.split('│').map((c) => c.trim())[column]);
    const stages = cells(defaults.stdout, 3);
    expect(stages).toHaveLength(5);
    expect(stages.every((s) => /^\d+ \w+$/.test(s!))).toBe(true);
    expect(cells(asked.stdout, 3)).toEqual(stages);
  });

  it('piped: exactly the fields given, the stage as its number', async () => {
    const r = await traced(['accounts', 'list', '--limit', '5', '--fields', 'Name,AccountStage']);
    expect(r).toMatchObject({ code: 0, fields: 'Name,AccountStage' });
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row[2]).toMatch(/^\d+$/);
  });
});
