import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { scriptedPrompter } from '../../helpers/scripted-prompter.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe('bo drips delete', () => {
  it('--yes deletes the campaign and its messages (piped: one outcome line; nothing on stderr)', async () => {
    const uid = sb.fixtures.dripCampaigns[0]!;
    const campaign = await sb.record('DripCampaign', uid);
    const messages = ((campaign.DripCampaignMessages ?? []) as Array<{ Uid: string }>).map((m) => m.Uid);
    const r = await runBo(['drips', 'delete', uid, '--yes'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${uid}\tok\tdeleted\n`);
    expect(r.stderr).toBe('');
    expect(await sb.record('DripCampaign', uid)).toBeNull();
    for (const m of messages) expect(await sb.record('DripCampaignMessage', m)).toBeNull();
  });

  it('a second delete exits 3 naming the Uid', async () => {
    const uid = sb.fixtures.dripCampaigns[0]!;
    const r = await runBo(['drips', 'delete', uid, '--yes'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toBe(`error: drip campaign "${uid}" not found`);
  });

  it('asks on a terminal naming the profile and origin; --json prints the answer as JSON', async () => {
    const uid = sb.fixtures.dripCampaigns[1]!;
    const before = (await sb.activity()).length;
    const no = scriptedPrompter([{ confirm: `Delete drip campaign ${uid} and its messages on profile "default" (${sb.url})`, answer: false }]);
    const refused = await runBo(['drips', 'delete', uid], { env: testEnv(sb), prompter: no, stdinIsTTY: true, stdoutIsTTY: true });
    expect(refused).toMatchObject({ code: 2, stderr: 'Nothing was changed.\n' });
    expect(await sb.activity()).toHaveLength(before);
    const yes = scriptedPrompter([{ confirm: `Delete drip campaign ${uid}`, answer: true }]);
    const r = await runBo(['drips', 'delete', uid, '--json'], { env: testEnv(sb), prompter: yes, stdinIsTTY: true, stdoutIsTTY: true });
    yes.assertDone();
    expect(r.code).toBe(0);
    // On a terminal the JSON is coloured: the same JSON without its colours.
    expect(r.stdout).toMatch(/^\{\n {2}\u001b\[1;34m"uid"/);
    const outcome = JSON.parse(r.stdout.replace(/\u001b\[[0-9;]*m/g, ''));
    expect(outcome).toMatchObject({ uid, ok: true, changed: true, reason: null });
    expect(typeof outcome.answer).toBe('string');
    expect(await sb.record('DripCampaign', uid)).toBeNull();
  });

  it('refuses under --no-input without --yes; --dry-run needs no --yes and sends nothing', async () => {
    const uid = sb.fixtures.dripCampaigns[2]!;
    const before = (await sb.activity()).length;
    const r = await runBo(['drips', 'delete', uid], { env: testEnv(sb) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: delete drip campaign .* needs confirmation; pass --yes/);
    const dry = await runBo(['drips', 'delete', uid, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ method: 'DELETE', url: `${sb.url}/api/v1/email/campaigns/drips/${uid}`, body: null });
    expect(await sb.activity()).toHaveLength(before);
    expect(await sb.record('DripCampaign', uid)).not.toBeNull();
    const real = await runBo(['drips', 'delete', uid, '--yes'], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    const sent = (await sb.activity()).slice(before);
    expect(sent.map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`DELETE ${JSON.parse(dry.stdout).url}`]);
    expect(await sb.record('DripCampaign', uid)).toBeNull();
    const afterReal = (await sb.activity()).length;
    const bad = await runBo(['drips', 'delete', 'a/b', '--yes'], { env: testEnv(sb) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: <dripUid> must be a Uid/);
    expect(await sb.activity()).toHaveLength(afterReal);
  });

  it('a batch needs --yes, then deletes each campaign read from stdin', async () => {
    await sb.reset(); // the seeded campaigns again: earlier tests deleted them
    const uids = [sb.fixtures.dripCampaigns[2]!];
    const before = (await sb.activity()).length;
    const refused = await runBo(['drips', 'delete', '-'], { env: testEnv(sb), stdin: uids.join('\n') });
    expect(refused.code).toBe(2);
    expect(await sb.activity()).toHaveLength(before);
    // The same campaign twice: the second delete finds nothing.
    const r = await runBo(['drips', 'delete', '-', '--yes', '--concurrency', '1'], { env: testEnv(sb), stdin: [...uids, uids[0]].join('\n') });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${uids[0]}\tok\tdeleted\n${uids[0]}\t404\tnot found\n`);
    expect(r.stderr).toContain(`1 deleted, 1 not found on ${sb.url} (profile default)\n`);
    for (const uid of uids) expect(await sb.record('DripCampaign', uid)).toBeNull();
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['drips', 'delete', '--help']);
    expect(r.stdout).toMatch(/\| bo drips delete - --yes/);
  });
});
