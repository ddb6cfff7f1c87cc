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

const addOn = (i: number) => sb.fixtures.subscriptionAddOns[i]!;
const ended = (rec: { EndDate?: string } | null) => rec !== null && typeof rec.EndDate === 'string' && Date.parse(rec.EndDate) <= Date.now() + 1000;

describe('bo addons expire', () => {
  it('expires the add-on (piped: one outcome line, nothing on stderr)', async () => {
    const uid = addOn(0);
    expect(ended(await sb.record('SubscriptionAddOn', uid))).toBe(false);
    const r = await runBo(['addons', 'expire', uid], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${uid}\tok\texpired\n`);
    expect(r.stderr).toBe('');
    const stored = await sb.record('SubscriptionAddOn', uid);
    expect(ended(stored)).toBe(true);
    expect(stored.ExpirationDate).toBe(stored.EndDate);
  });

  it('is idempotent: expiring an ended add-on exits 0; the line says it had already ended, the server\'s words are a note (TTY)', async () => {
    const uid = addOn(0);
    const before = await sb.record('SubscriptionAddOn', uid);
    const r = await runBo(['--no-color', 'addons', 'expire', uid], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`✔ Subscription add-on ${uid} already ended\n`);
    expect(r.stderr).toMatch(/^Add-on already ended at /);
    expect(await sb.record('SubscriptionAddOn', uid)).toEqual(before);
  });

  it('--json prints the outcome: changed, and the answer as a JSON string; again, unchanged with the reason (D32)', async () => {
    const uid = addOn(1);
    const r = await runBo(['--json', 'addons', 'expire', uid], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    expect(outcome).toMatchObject({ uid, ok: true, status: 200, changed: true, reason: null, error: null });
    expect(outcome.answer).toMatch(/^Add-on expired at /);
    expect(ended(await sb.record('SubscriptionAddOn', uid))).toBe(true);
    const again = await runBo(['--json', 'addons', 'expire', uid], { env: testEnv(sb) });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ uid, ok: true, changed: false, reason: 'already-ended', answer: expect.stringMatching(/^Add-on already ended at /) });
  });

  it('--dry-run prints the request a real run then sends, and sends nothing', async () => {
    const uid = addOn(2);
    const before = (await sb.activity()).length;
    const dry = await runBo(['--json', 'addons', 'expire', uid, '--dry-run'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'PUT', url: `${sb.url}/api/v1/billing/subscriptionaddons/${uid}/expire`, body: null });
    expect(dry.stderr).toContain(`profile "default" (${sb.url})`);
    expect(await sb.activity()).toHaveLength(before);
    expect(ended(await sb.record('SubscriptionAddOn', uid))).toBe(false);
    const real = await runBo(['addons', 'expire', uid], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    const sent = (await sb.activity()).slice(before);
    expect(sent.map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`${planned.method} ${planned.url}`]);
  });

  it('--dry-run reads no credential: it works with none configured', async () => {
    const uid = addOn(2);
    const r = await runBo(['addons', 'expire', uid, '--dry-run'], { env: { ...tempConfig().env, BO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`PUT ${sb.url}/api/v1/billing/subscriptionaddons/${uid}/expire\n`);
  });

  it('exits 3 naming the Uid when the add-on does not exist', async () => {
    const r = await runBo(['addons', 'expire', 'sa_missing'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: subscription add-on "sa_missing" not found');
  });

  it('exits 2 for a malformed Uid or batch flags without -, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const argv of [['a/b'], ['a b'], [''], [addOn(3), '--fail-fast'], [addOn(3), '--concurrency', '2'], ['-', '--concurrency', '17'], ['-', '--concurrency', 'x']]) {
      const r = await runBo(['addons', 'expire', ...argv], { env: testEnv(sb), stdin: `${addOn(3)}\n` });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: (<subscriptionAddOnUid>|--fail-fast|--concurrency) /);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('expires a batch from stdin: one outcome a line and a summary naming profile and origin', async () => {
    const [a, b] = [addOn(4), addOn(5)];
    const r = await runBo(['addons', 'expire', '-'], { env: testEnv(sb), stdin: `# add-ons to end\n${a}\n\n{"Uid":"${b}"}\nsa_missing\n` });
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split('\n').sort();
    expect(lines).toEqual([`${a}\tok\texpired`, `${b}\tok\texpired`, 'sa_missing\t404\tnot found'].sort());
    expect(r.stderr).toContain(`2 expired, 1 not found on ${sb.url} (profile default)\n`);
    expect(ended(await sb.record('SubscriptionAddOn', a))).toBe(true);
    expect(ended(await sb.record('SubscriptionAddOn', b))).toBe(true);
  });

  it('a batch --dry-run prints every request and sends nothing', async () => {
    const [a, b] = [addOn(6), addOn(7)];
    const before = (await sb.activity()).length;
    const r = await runBo(['--jsonl', 'addons', 'expire', '-', '--dry-run'], { env: testEnv(sb), stdin: `${a}\n${b}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).url)).toEqual([a, b].map((u) => `${sb.url}/api/v1/billing/subscriptionaddons/${u}/expire`));
    expect(await sb.activity()).toHaveLength(before);
    expect(ended(await sb.record('SubscriptionAddOn', a))).toBe(false);
  });

  it('--help has an example, a batch one included', async () => {
    const r = await runBo(['addons', 'expire', '--help']);
    expect(r.stdout).toMatch(/Examples:\n {2}bo addons expire /);
    expect(r.stdout).toMatch(/\| bo addons expire - /);
  });
});
