// What a new user needs to find what to act on, on the built binary against a served
// sandbox: where the Uids no API lists come from (help), nested --fields paths known,
// an account's subscriptions and add-ons (one request each), the way out of an unknown
// verb or an option of another verb, the batch group's help, and the stage an account
// moved to after a cancel.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

const ACCOUNT = 'acc_lvsegbmzg';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** The requests the sandbox answered while `run` ran: method and path. */
async function sent(run: () => Promise<unknown>): Promise<string[]> {
  const before = (await sb.activity()).length;
  await run();
  return (await sb.activity()).slice(before).map((a) => `${a.method} ${a.path}`);
}

/** The account's subscriptions and their add-ons as the sandbox holds them. */
async function held(): Promise<Array<{ Uid: string; Plan: { Name: string }; SubscriptionAddOns: Array<{ Uid: string; AddOn: { Name: string }; EndDate: string | null }> }>> {
  const fields = 'Subscriptions.Uid,Subscriptions.Plan.Name,Subscriptions.SubscriptionAddOns.Uid,Subscriptions.SubscriptionAddOns.AddOn.Name,Subscriptions.SubscriptionAddOns.EndDate';
  const r = await sb.api('GET', `/crm/accounts?q=${ACCOUNT}&fields=${fields}`);
  return r.body.items[0].Subscriptions;
}

describe('where the Uids come from', () => {
  it.each([
    [['help', 'drips'], "back office's own pages"],
    [['drips', 'add-message', '--help'], "dripUid                 the drip campaign Uid (from the back office's drip"],
    [['drips', 'delete', '--help'], "back office's drip campaign pages"],
    [['help', 'articles'], "Support article and tag Uids come from the back office's own pages"],
    [['articles', 'untag', '--help'], "the Uid of the tag to remove (from the back office's tag pages"],
    [['help', 'deals'], '--fields Deals.DealPipelineStage.Uid,Deals.DealPipelineStage.Name'],
    [['deals', 'update', '--help'], '--fields Deals.DealPipelineStage.Uid'],
    [['help', 'addons'], 'bo addons list <accountUid>'],
  ])('bo %j names it', async (argv, text) => {
    const r = await runBin(argv, { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(text.replace(/\s+/g, ' '));
  });

  it('--fields knows a deal stage\'s Uid and Name: no warning, the values printed', async () => {
    const r = await runBin(['accounts', 'get', ACCOUNT, '--fields', 'Deals.DealPipelineStage.Uid,Deals.DealPipelineStage.Name'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^Uid\tacc_lvsegbmzg\nDeals\.DealPipelineStage\.Uid\t\["stage_\w+"(,"stage_\w+")*\]\nDeals\.DealPipelineStage\.Name\t\[".+"\]\n$/);
    // A typo under it is still named, with the nearest known path.
    const typo = await runBin(['accounts', 'get', ACCOUNT, '--fields', 'Deals.DealPipelineStage.Nmae'], { env: testEnv(sb) });
    expect(typo.stderr).toBe('warning: --fields: Account has no known field Deals.DealPipelineStage.Nmae (nearest: Deals.DealPipelineStage.Name); sent as given\n');
  });
});

describe("an account's subscriptions and add-ons", () => {
  it('bo subscriptions list: Uid, plan, quantity, start, end, ended or running, with one request', async () => {
    const subscriptions = await held();
    let r = { code: 0 as number | null, stdout: '', stderr: '' };
    expect(await sent(async () => (r = await runBin(['subscriptions', 'list', ACCOUNT], { env: testEnv(sb) })))).toEqual(['GET /api/v1/crm/accounts']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[0], row[1]])).toEqual(subscriptions.map((s) => [s.Uid, s.Plan.Name]));
    for (const row of rows) expect(row[5]).toMatch(/^(ended|running)$/);
    const csv = await runBin(['--csv', 'subscriptions', 'list', ACCOUNT], { env: testEnv(sb) });
    expect(csv.stdout.split('\r\n')[0]).toBe('Uid,Plan,Quantity,Start,End,Status');
  });

  it('bo addons list: every add-on of the account, an ended one says so; --json, --jsonl and --fields as every list', async () => {
    const addOns = (await held()).flatMap((s) => s.SubscriptionAddOns);
    expect(addOns.length).toBeGreaterThan(1);
    const r = await runBin(['addons', 'list', ACCOUNT], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    const now = Date.now();
    expect(rows.map((row) => [row[0], row[1], row[5]])).toEqual(
      addOns.map((a) => [a.Uid, a.AddOn.Name, a.EndDate !== null && Date.parse(a.EndDate) <= now ? 'ended' : 'running']),
    );
    const json = JSON.parse((await runBin(['--json', 'addons', 'list', ACCOUNT], { env: testEnv(sb) })).stdout) as Array<{ Uid: string; AddOn: { Name: string } }>;
    expect(json.map((a) => [a.Uid, a.AddOn.Name])).toEqual(addOns.map((a) => [a.Uid, a.AddOn.Name]));
    const jsonl = (await runBin(['--jsonl', 'addons', 'list', ACCOUNT], { env: testEnv(sb) })).stdout.trimEnd().split('\n');
    expect(jsonl.map((line) => JSON.parse(line).Uid)).toEqual(addOns.map((a) => a.Uid));
    const fields = await runBin(['addons', 'list', ACCOUNT, '--fields', 'AddOn.Name'], { env: testEnv(sb) });
    expect(fields.stdout).toBe(addOns.map((a) => `${a.Uid}\t${a.AddOn.Name}\n`).join(''));
    expect(fields.stderr).toBe('');
  });

  it('an unknown account is exit 3 with the way to find one', async () => {
    const r = await runBin(['addons', 'list', 'acc_missing'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('error: no account with Uid acc_missing\nhint: bo accounts list --q <name> finds accounts by name\n');
  });
});

describe('the way out of a wrong word', () => {
  it('an unknown verb names the nearest and the way to the records (exit 2, nothing sent)', async () => {
    const env = testEnv(sb);
    const requests = await sent(async () => {
      const get = await runBin(['subscriptions', 'get', 'sub_saxvhgnrf'], { env });
      expect(get.code).toBe(2);
      expect(get.stderr).toBe("error: unknown command 'get'\n(bo subscriptions list <accountUid> lists an account's subscriptions)\n");
      const lst = await runBin(['addons', 'lst'], { env });
      expect(lst.code).toBe(2);
      expect(lst.stderr).toBe("error: unknown command 'lst'\n(did you mean list?)\n(bo addons list <accountUid> lists an account's add-ons)\n");
      const drips = await runBin(['drips', 'list'], { env });
      expect(drips.stderr).toBe(
        "error: unknown command 'list'\n(drip campaign Uids come from the back office's own pages: the API has no list of drip campaigns)\n",
      );
    });
    expect(requests).toEqual([]);
  });

  it("an option of another verb says whose it is and how this one searches; commander's guess stays for typos", async () => {
    const env = testEnv(sb);
    const q = await runBin(['lists', 'list', '--q', 'December'], { env });
    expect(q.code).toBe(2);
    expect(q.stderr).toBe("error: unknown option '--q'\n(--q is an option of accounts list; lists list searches with --filter Name=…)\n");
    const search = await runBin(['coupons', 'list', '--q', 'welcome'], { env });
    expect(search.stderr).toBe("error: unknown option '--q'\n(--q is an option of accounts list; coupons list searches with --search)\n");
    const reason = await runBin(['accounts', 'list', '--reason', 'x'], { env });
    expect(reason.stderr).toBe("error: unknown option '--reason'\n(--reason is an option of accounts cancel)\n");
    const typo = await runBin(['accounts', 'list', '--jq2', '.'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: unknown option '--jq2'\n(did you mean --jq?)\n");
  });
});

describe('small ones', () => {
  it('the batch group says what it is for, in --help and its man page', async () => {
    const help = await runBin(['batch', '--help'], { env: testEnv(sb) });
    expect(help.stdout.split('\n\n')[1]!.replace(/\s+/g, ' ')).toBe('Interrupted batches: finish one from its journal, sending nothing known to be done');
    const man = readFileSync(fileURLToPath(new URL('../../man/bo-batch.1', import.meta.url)), 'utf8');
    expect(man).toContain('bo\\-batch \\- interrupted batches: finish one from its journal');
  });

  it('a single cancel reads the account back (one GET) and shows its stage; a batch and --json do not', async () => {
    const [one, two, three] = sb.fixtures.trialAccounts;
    const env = testEnv(sb);
    let single = { code: 0 as number | null, stdout: '', stderr: '' };
    expect(await sent(async () => (single = await runBin(['accounts', 'cancel', one!, '--reason', 'Closed', '--yes'], { env })))).toEqual([
      `PUT /api/v1/crm/accounts/${one}/cancel`,
      'GET /api/v1/crm/accounts',
    ]);
    expect(single).toMatchObject({ code: 0, stdout: `${one}\tok\tCancelationReason=Closed;AccountStage=4 Cancelling\n`, stderr: '' });
    const batch = await sent(async () => {
      const r = await runBin(['accounts', 'cancel', '-', '--reason', 'Closed', '--yes'], { env, stdin: `${two}\n` });
      expect(r.stdout).toBe(`${two}\tok\tCancelationReason=Closed\n`);
    });
    expect(batch).toEqual([`PUT /api/v1/crm/accounts/${two}/cancel`]);
    const json = await sent(async () => {
      const r = await runBin(['--json', 'accounts', 'cancel', three!, '--reason', 'Closed', '--yes'], { env });
      expect(JSON.parse(r.stdout)).toMatchObject({ uid: three, ok: true, changed: true, answer: { CancelationReason: 'Closed' } });
    });
    expect(json).toEqual([`PUT /api/v1/crm/accounts/${three}/cancel`]);
  });
});
