// Protected profiles (`bo config set protected true`): every mutation on them confirms on
// a terminal, naming profile and origin, and needs --yes without one. --dry-run never
// asks; under --sandbox it prints the embedded sandbox's URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedPrompter } from '../helpers/scripted-prompter.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const keys = () => ({ BO_BASE_URL: sb.url, BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret });
async function protectedProfile(name = 'production') {
  const t = tempConfig();
  const set = await runBo(['-p', name, 'config', 'set', 'protected', 'true'], { env: t.env });
  expect(set.code).toBe(0);
  return { ...t.env, ...keys(), BO_PROFILE: name };
}
const ended = async (uid: string) => Date.parse((await sb.record('SubscriptionAddOn', uid)).EndDate ?? '9999') <= Date.now() + 1000;

describe('protected profiles', () => {
  it('config stores protected as a boolean and refuses anything but true/false', async () => {
    const t = tempConfig();
    expect((await runBo(['config', 'set', 'protected', 'yes'], { env: t.env })).stderr).toBe('error: protected must be true or false, got "yes"\n');
    await runBo(['config', 'set', 'protected', 'TRUE'], { env: t.env });
    expect(t.readJson(t.configFile).profiles.default.protected).toBe(true);
    expect((await runBo(['config', 'get', 'protected'], { env: t.env })).stdout).toBe('true\n');
  });

  it('a non-destructive mutation needs --yes under --no-input, sending nothing', async () => {
    const env = await protectedProfile();
    const uid = sb.fixtures.subscriptionAddOns[0]!;
    const before = (await sb.activity()).length;
    const r = await runBo(['addons', 'expire', uid], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error: expire add-on ${uid} on profile "production" (${sb.url}) needs confirmation; pass --yes (profile "production" is protected)`,
    );
    expect(await sb.activity()).toHaveLength(before);
    const yes = await runBo(['addons', 'expire', uid, '--yes'], { env });
    expect(yes.code).toBe(0);
    expect(await ended(uid)).toBe(true);
  });

  it('asks on a terminal, naming profile and origin; a no sends nothing', async () => {
    const env = await protectedProfile();
    const uid = sb.fixtures.subscriptionAddOns[1]!;
    const before = (await sb.activity()).length;
    const no = scriptedPrompter([{ confirm: `Expire add-on ${uid} on profile "production" (${sb.url})?`, answer: false }]);
    const r = await runBo(['addons', 'expire', uid], { env, prompter: no, stdinIsTTY: true });
    no.assertDone();
    // Declined: one plain line, exit 2 (a confirmation not given), nothing sent.
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Nothing was changed.\n' });
    expect(await sb.activity()).toHaveLength(before);
    expect(await ended(uid)).toBe(false);
    const yes = scriptedPrompter([{ confirm: `Expire add-on ${uid} on profile "production"`, answer: true }]);
    expect((await runBo(['addons', 'expire', uid], { env, prompter: yes, stdinIsTTY: true })).code).toBe(0);
    expect(await ended(uid)).toBe(true);
  });

  it('the question says which account it is (name and stage, one read); --yes and --no-input read nothing', async () => {
    const env = await protectedProfile();
    const uid = sb.fixtures.trialAccounts[3]!;
    const { Name: name, AccountStageLabel: label } = await sb.record('Account', uid);
    const before = (await sb.activity()).length;
    const no = scriptedPrompter([{ confirm: `Extend the trial of account ${uid} (${name}, 2 ${label}) on profile "production" (${sb.url})?`, answer: false }]);
    const r = await runBo(['accounts', 'extend-trial', uid, '--to', '2031-01-31'], { env, prompter: no, stdinIsTTY: true });
    no.assertDone();
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Nothing was changed.\n' });
    expect((await sb.activity()).slice(before).map((a) => a.method)).toEqual(['GET']);
    // Not asked: no read at all.
    const quiet = (await sb.activity()).length;
    expect((await runBo(['accounts', 'extend-trial', uid, '--to', '2031-01-31', '--no-input'], { env, stdinIsTTY: true })).code).toBe(2);
    expect((await runBo(['accounts', 'extend-trial', uid, '--to', '2031-01-31', '--dry-run'], { env })).code).toBe(0);
    expect((await sb.activity()).length).toBe(quiet);
    expect((await runBo(['accounts', 'extend-trial', uid, '--to', '2031-01-31', '--yes'], { env })).code).toBe(0);
    expect((await sb.activity()).slice(quiet).map((a) => a.method)).toEqual(['PUT']);
  });

  it('a batch on a protected profile needs --yes; --dry-run needs none', async () => {
    const env = await protectedProfile();
    const uid = sb.fixtures.subscriptionAddOns[2]!;
    const before = (await sb.activity()).length;
    const r = await runBo(['addons', 'expire', '-'], { env, stdin: `${uid}\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs --yes: profile "production" is protected/);
    const dry = await runBo(['addons', 'expire', '-', '--dry-run'], { env, stdin: `${uid}\n` });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(`PUT ${sb.url}/api/v1/billing/subscriptionaddons/${uid}/expire\n`);
    expect(dry.stderr).toContain('profile "production"');
    expect(await sb.activity()).toHaveLength(before);
  });

  it('an unprotected profile does not ask', async () => {
    const uid = sb.fixtures.subscriptionAddOns[3]!;
    const r = await runBo(['addons', 'expire', uid], { env: { ...tempConfig().env, ...keys() }, prompter: scriptedPrompter([]), stdinIsTTY: true });
    expect(r.code).toBe(0);
  });
});

describe('--dry-run', () => {
  it('under --sandbox prints the path alone (the embedded sandbox has no address) and --no-log adds donotlog=1', async () => {
    const t = tempConfig();
    const r = await runBo(['--sandbox', '--no-log', 'addons', 'expire', 'sa_1', '--dry-run', '--json'], { env: { ...t.env, BO_DATA_DIR: t.root } });
    expect(r.code).toBe(0);
    const planned = JSON.parse(r.stdout);
    expect(planned.url).toBe('/api/v1/billing/subscriptionaddons/sa_1/expire?donotlog=1');
    expect(r.stderr).toContain('profile "sandbox"');
  });

  it('bo api -X <method> --dry-run prints method, URL and body and sends nothing', async () => {
    const env = { ...tempConfig().env, BO_BASE_URL: sb.url };
    const before = (await sb.activity()).length;
    const r = await runBo(['api', '-X', 'POST', '/email/lists', '-F', 'Name=Beta', '-F', 'IsInternal=true', '--dry-run', '--json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ method: 'POST', url: `${sb.url}/api/v1/email/lists`, body: { Name: 'Beta', IsInternal: true } });
    const del = await runBo(['api', '-X', 'DELETE', `/email/campaigns/drips/${sb.fixtures.dripCampaigns[0]}?x=1`, '--dry-run'], { env });
    expect(del.stdout).toBe(`DELETE ${sb.url}/api/v1/email/campaigns/drips/${sb.fixtures.dripCampaigns[0]}?x=1\n`);
    expect(del.stderr).toBe(`Dry run on profile "default" (${sb.url}): nothing was sent.\n`);
    expect(await sb.activity()).toHaveLength(before);
    expect(await sb.record('DripCampaign', sb.fixtures.dripCampaigns[0]!)).not.toBeNull();
  });

  it('a batch dry run reports malformed lines and exits 2', async () => {
    const env = { ...tempConfig().env, BO_BASE_URL: sb.url };
    const r = await runBo(['addons', 'expire', '-', '--dry-run'], { env, stdin: 'sa_1\nbad uid\n' });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe(`PUT ${sb.url}/api/v1/billing/subscriptionaddons/sa_1/expire\n`);
    expect(r.stderr).toContain('invalid: line 2 must be a Uid');
  });
});

describe('under --sandbox', () => {
  it('a confirmation names the embedded sandbox, not the port it happens to listen on', async () => {
    const t = tempConfig();
    const env = { ...t.env, BO_DATA_DIR: t.root };
    expect((await runBo(['--sandbox', 'config', 'set', 'protected', 'true'], { env })).code).toBe(0);
    const fixtures = JSON.parse((await runBo(['--sandbox', 'sandbox', 'fixtures'], { env })).stdout);
    const uid = fixtures.subscriptionAddOns[0];
    const r = await runBo(['--sandbox', 'addons', 'expire', uid, '--no-input'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain('on profile "sandbox" (the embedded sandbox)');
    const ok = await runBo(['--sandbox', 'addons', 'expire', uid, '--yes'], { env });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
