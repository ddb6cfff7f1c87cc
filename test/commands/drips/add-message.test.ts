import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const drip = (i: number) => sb.fixtures.dripCampaigns[i]!;

describe('bo drips add-message', () => {
  it('piped: stores Message{Name,Subject,Body} and the delays, prints one outcome line, notes the campaign is now inactive', async () => {
    const uid = drip(0);
    const t = tempConfig();
    const file = join(t.root, 'day3.html');
    writeFileSync(file, '<p>Tips 💡</p>');
    const r = await runBo(['drips', 'add-message', uid, '--name', 'Day 3', '--subject', 'Tips', '--body', `@${file}`, '--delay-hours', '72', '--days-after-prior', '2'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const [added, ok, fields] = r.stdout.trimEnd().split('\t');
    expect([ok, fields]).toEqual(['ok', `DripCampaign=${uid};Name=Day 3;Subject=Tips;Body=<p>Tips 💡</p>;DelayInHours=72;DelayFromPriorDay=2`]);
    expect(r.stderr).toBe(`Campaign ${uid} is now inactive until it is reviewed\n`);
    expect(await sb.record('DripCampaignMessage', added!)).toMatchObject({
      DripCampaign: { Uid: uid },
      Message: { Name: 'Day 3', Subject: 'Tips', Body: '<p>Tips 💡</p>' },
      DelayInHours: 72,
      DelayFromPriorDay: 2,
    });
    expect((await sb.record('DripCampaign', uid)).IsActive).toBe(false);
  });

  it('TTY: one ✔ line naming the new message; --json: the created message as the API shaped it', async () => {
    const uid = drip(1);
    const tty = await runBo(['drips', 'add-message', uid, '--subject', 'Hello', '--body', 'Hi there'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toMatch(new RegExp(`^✔ Drip message \\S+: DripCampaign=${uid}, Subject=Hello, Body=Hi there\\n$`));
    expect(tty.stderr).toMatch(new RegExp(`Campaign ${uid} is now inactive until it is reviewed\\n$`));
    const json = await runBo(['drips', 'add-message', uid, '--subject', 'Again', '--body', 'B', '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    const message = JSON.parse(json.stdout).answer;
    expect(message).toMatchObject({ DripCampaign: { Uid: uid }, Message: { Subject: 'Again', Body: 'B' } });
    expect((await sb.record('DripCampaignMessage', message.Uid)).Message.Subject).toBe('Again');
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing; the campaign stays as it was', async () => {
    const uid = drip(2);
    const activeBefore = (await sb.record('DripCampaign', uid)).IsActive;
    const before = (await sb.activity()).length;
    const argv = ['drips', 'add-message', uid, '--subject', 'S', '--body', 'B', '--delay-hours', '4'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'POST', url: `${sb.url}/api/v1/email/campaigns/drips/${uid}/messages`, body: { Message: { Subject: 'S', Body: 'B' }, DelayInHours: 4 } });
    expect(await sb.activity()).toHaveLength(before);
    expect((await sb.record('DripCampaign', uid)).IsActive).toBe(activeBefore);
    const real = await runBo([...argv, '--json'], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`POST ${planned.url}`]);
    expect(await sb.record('DripCampaignMessage', JSON.parse(real.stdout).answer.Uid)).toMatchObject(planned.body);
  });

  it('exits 2 naming the flag, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[drip(0), '--body', 'B'], /^error: required option '--subject <text>' not specified/],
      [[drip(0), '--subject', 'S'], /^error: required option '--body <text>' not specified/],
      [[drip(0), '--subject', '', '--body', 'B'], /^error: --subject must not be empty/],
      [[drip(0), '--subject', 'x'.repeat(251), '--body', 'B'], /^error: --subject must be at most 250 characters/],
      [[drip(0), '--subject', 'S', '--body', 'B', '--delay-hours', '-1'], /^error: --delay-hours must be a whole number/],
      [[drip(0), '--subject', 'S', '--body', 'B', '--days-after-prior', '1.5'], /^error: --days-after-prior must be a whole number/],
      [['-', '--subject', 'S', '--body', 'B'], /^error: <dripUid> takes one value/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['drips', 'add-message', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('exits 3 naming the Uid for an unknown campaign', async () => {
    const r = await runBo(['drips', 'add-message', 'drip_missing', '--subject', 'S', '--body', 'B'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: drip campaign "drip_missing" not found$/);
  });

  it('--help says the campaign turns inactive, with examples', async () => {
    const r = await runBo(['drips', 'add-message', '--help']);
    expect(r.stdout).toMatch(/inactive until it is\s+reviewed/);
    expect(r.stdout).toMatch(/^  bo drips add-message drip_\S+ --subject/m);
  });
});
