// `bo api` on a protected profile: every method but GET confirms as any mutation does
// (asks on a terminal naming profile and origin, needs --yes otherwise); --dry-run
// never asks. Against the sandbox, whose activity log shows what was received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function protectedProfile() {
  const t = tempConfig();
  expect((await runBo(['-p', 'production', 'config', 'set', 'protected', 'true'], { env: t.env })).code).toBe(0);
  return { ...t.env, BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret, BO_PROFILE: 'production' };
}
const needs = (what: string) =>
  `error: Send ${what} on profile "production" (${sb.url}) needs confirmation; pass --yes (profile "production" is protected)`;

describe('bo api on a protected profile', () => {
  it('DELETE, PUT and POST need --yes under --no-input, as a mutation verb does; nothing is sent', async () => {
    const env = await protectedProfile();
    const drip = sb.fixtures.dripCampaigns[0]!;
    const addOn = sb.fixtures.subscriptionAddOns[0]!;
    const before = (await sb.activity()).length;
    const verb = await runBo(['drips', 'delete', drip, '--no-input'], { env });
    expect(verb.code).toBe(2);
    const cases: Array<[string[], string]> = [
      [['api', '-X', 'DELETE', `/email/campaigns/drips/${drip}`, '--no-input'], `DELETE /email/campaigns/drips/${drip}`],
      [['api', '-X', 'PUT', `/billing/subscriptionaddons/${addOn}/expire`, '--no-input'], `PUT /billing/subscriptionaddons/${addOn}/expire`],
      [['api', '-X', 'POST', '/email/lists', '-F', 'Name=x', '--no-input'], 'POST /email/lists'],
      [['api', '/email/lists', '-F', 'Name=x'], 'POST /email/lists'],
    ];
    for (const [args, what] of cases) {
      const r = await runBo(args, { env });
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(needs(what));
      expect(r.code, args.join(' ')).toBe(verb.code);
      expect(r.stdout).toBe('');
    }
    expect(await sb.activity()).toHaveLength(before);
    expect(await sb.record('DripCampaign', drip)).not.toBeNull();
  });

  it('--yes sends it', async () => {
    const env = await protectedProfile();
    const drip = sb.fixtures.dripCampaigns[1]!;
    const r = await runBo(['api', '-X', 'DELETE', `/email/campaigns/drips/${drip}`, '--no-input', '--yes'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await sb.record('DripCampaign', drip)).toBeNull();
  });

  it('asks on a terminal, naming profile and origin; a no sends nothing and exits as a declined mutation does', async () => {
    const env = await protectedProfile();
    const drip = sb.fixtures.dripCampaigns[2]!;
    const before = (await sb.activity()).length;
    const verbNo = scriptedPrompter([{ confirm: `Delete drip campaign ${drip}`, answer: false }]);
    const verb = await runBo(['drips', 'delete', drip], { env, prompter: verbNo, stdinIsTTY: true });
    const no = scriptedPrompter([{ confirm: `Send DELETE /email/campaigns/drips/${drip} on profile "production" (${sb.url})?`, answer: false }]);
    const r = await runBo(['api', '-X', 'DELETE', `/email/campaigns/drips/${drip}`], { env, prompter: no, stdinIsTTY: true });
    no.assertDone();
    expect(r.code).toBe(verb.code);
    expect(r.code).not.toBe(0);
    expect(await sb.activity()).toHaveLength(before);
    const yes = scriptedPrompter([{ confirm: `Send DELETE /email/campaigns/drips/${drip} on profile "production"`, answer: true }]);
    expect((await runBo(['api', '-X', 'DELETE', `/email/campaigns/drips/${drip}`], { env, prompter: yes, stdinIsTTY: true })).code).toBe(0);
    expect(await sb.record('DripCampaign', drip)).toBeNull();
  });

  it('--dry-run never asks, and GET is not a mutation', async () => {
    const env = await protectedProfile();
    const drip = sb.fixtures.dripCampaigns[3]!;
    const before = (await sb.activity()).length;
    const dry = await runBo(['api', '-X', 'DELETE', `/email/campaigns/drips/${drip}`, '--dry-run', '--no-input'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(`DELETE ${sb.url}/api/v1/email/campaigns/drips/${drip}\n`);
    expect(await sb.activity()).toHaveLength(before);
    const get = await runBo(['api', '/email/lists?limit=1', '--no-input'], { env, prompter: scriptedPrompter([]), stdinIsTTY: true });
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout).items).toHaveLength(1);
  });

  it('nested -F fields and -H headers confirm as any write does; a no sends nothing, a yes sends the request', async () => {
    const env = await protectedProfile();
    const list = (await sb.api('GET', '/email/lists?limit=1')).body.items[0];
    const args = ['api', `/email/lists`, '-f', 'Name=Protected nested', '-F', 'RequiresDoubleOptIn=false', '-H', 'X-Request-Id: p-1'];
    const before = (await sb.activity()).length;
    const refused = await runBo([...args, '--no-input'], { env });
    expect(refused.stderr.split('\n')[0]).toBe(needs('POST /email/lists'));
    expect(refused.code).toBe(2);
    expect(await sb.activity()).toHaveLength(before);
    const no = scriptedPrompter([{ confirm: `Send POST /email/lists on profile "production" (${sb.url})?`, answer: false }]);
    const declined = await runBo(args, { env, prompter: no, stdinIsTTY: true });
    no.assertDone();
    expect(declined.stderr).toBe('Nothing was changed.\n');
    expect(declined.code).toBe(2);
    expect(await sb.activity()).toHaveLength(before);
    const yes = scriptedPrompter([{ confirm: 'Send POST /email/lists on profile "production"', answer: true }]);
    const sent = await runBo(args, { env, prompter: yes, stdinIsTTY: true });
    yes.assertDone();
    expect(sent.code).toBe(0);
    expect(await sb.record('EmailList', JSON.parse(sent.stdout).Uid)).toMatchObject({ Name: 'Protected nested', RequiresDoubleOptIn: false });
    // A nested -F body, on an endpoint that takes a nested record: the public subscription.
    const sub = scriptedPrompter([{ confirm: `Send POST /public/email/lists/${list.Uid}/subscriptions`, answer: true }]);
    const nested = await runBo(['api', `/public/email/lists/${list.Uid}/subscriptions`, '-F', 'Person[Email]=nested.f@example.com'], { env, prompter: sub, stdinIsTTY: true });
    sub.assertDone();
    expect(nested.code).toBe(0);
    expect(JSON.parse(nested.stdout).Person).toMatchObject({ Email: 'nested.f@example.com' });
  });

  it('an unprotected profile does not ask', async () => {
    const env = testEnv(sb);
    const r = await runBo(['api', '-X', 'POST', '/email/lists', '-F', 'Name=Unprotected'], { env, prompter: scriptedPrompter([]), stdinIsTTY: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ Name: 'Unprotected' });
  });
});
