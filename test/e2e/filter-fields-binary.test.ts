// --filter checked against the resource's known fields, and AccountStage with its label
// on a terminal, on the built binary as a real process against a sandbox over loopback
// HTTP (test/commands/filter-fields.test.ts and test/output/stage-label.test.ts check
// every case in process). Nothing sent is read from the sandbox's activity log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, runOnTerminal } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox();
  env = testEnv(sb);
});
afterAll(() => sb.close());

/** The built bo: its result, and the requests the sandbox logged while it ran. */
async function bo(argv: string[]) {
  const before = (await sb.activity()).length;
  const r = await runBin(argv, { env });
  return { ...r, requests: (await sb.activity()).slice(before).map((a) => `${a.method} ${a.path} ${a.status}`) };
}

describe('--filter that can never match (built binary)', () => {
  it.each([
    [['--filter', 'AccountStage=Trialing'], /^error: --filter AccountStage is an integer, not "Trialing": .*"2 Trialing" for AccountStage=2.*AccountStageLabel=Trialing\n$/],
    [['--filter', 'IsDemo=yes'], /^error: --filter IsDemo is a boolean \(true or false\), not "yes"\n$/],
    [['--filter', 'PersonAccount=x'], /^error: --filter cannot compare PersonAccount \(array of PersonAccount\): it takes a top-level field that holds one value .*\n$/],
  ])('bo accounts list %j: exit 2, one line naming --filter, the field and its type, nothing sent', async (args, message) => {
    const r = await bo(['accounts', 'list', ...args]);
    expect(r).toMatchObject({ code: 2, stdout: '', requests: [] });
    expect(r.stderr).toMatch(message);
  });

  it('a name bo does not know: the warning with the nearest known field, and the request is sent', async () => {
    const r = await bo(['accounts', 'list', '--filter', 'Stage=2', '--order-by', 'Name']);
    expect(r.stderr.split('\n')[0]).toBe('warning: --filter: Account has no known field Stage (nearest: AccountStage); sent as given');
    // The sandbox, as D14 says, refuses a property it does not have.
    expect(r.requests).toEqual(['GET /api/v1/crm/accounts 400']);
    expect(r.code).toBe(1);
  });
});

describe('accounts get --fields AccountStage (built binary)', () => {
  it('on a terminal the stage shows with its label; piped, exactly the field asked for', async () => {
    const uid = sb.fixtures.accounts[0]!;
    const account = (await sb.record<{ AccountStage: number; AccountStageLabel: string }>('Account', uid))!;
    const tty = await runOnTerminal(['accounts', 'get', uid, '--fields', 'AccountStage', '--no-color', '--verbose'], { ...env, BO_PAGER: 'cat' });
    expect(tty.code).toBe(0);
    expect(tty.out).toMatch(/^> GET \S+fields=AccountStage%2CAccountStageLabel&/m);
    expect(tty.out).toMatch(new RegExp(`AccountStage\\s+│?\\s*${account.AccountStage} ${account.AccountStageLabel}\\s`));
    const piped = await runBin(['accounts', 'get', uid, '--fields', 'AccountStage', '--verbose'], { env });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toMatch(/^> GET \S+fields=AccountStage&/m);
    expect(piped.stdout).toBe(`Uid\t${uid}\nAccountStage\t${account.AccountStage}\n`);
  });
});
