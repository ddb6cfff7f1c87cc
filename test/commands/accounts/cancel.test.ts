import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfig } from '../../helpers/config-dir.js';
import { testEnv } from '../../helpers/test-env.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { scriptedPrompter } from '../../helpers/scripted-prompter.js';
import { reply, startFaultServer } from '../../helpers/fault-server.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const account = (i: number) => sb.fixtures.trialAccounts[i]!;
const stage = async (uid: string) => (await sb.record('Account', uid)).AccountStage as number;

describe('bo accounts cancel', () => {
  it('--yes cancels: sends CancelationReason and Comment, prints one outcome line, the account is cancelling', async () => {
    const uid = account(0);
    const r = await runBo(['accounts', 'cancel', uid, '--reason', 'Moved to a competitor', '--comment', 'Call in May', '--yes'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    // Then the account read back (one GET): the stage it moved to.
    expect(r.stdout).toBe(`${uid}\tok\tCancelationReason=Moved to a competitor;Comment=Call in May;AccountStage=4 Cancelling\n`);
    expect(r.stderr).toBe('');
    expect(await stage(uid)).toBe(4);
  });

  it('a read back that fails leaves the success line as it was: the change was made, exit 0', async () => {
    const fault = await startFaultServer();
    try {
      fault.script(reply.json(200, { Uid: 'cancel_1', CancelationReason: 'x' }), reply.json(400, { error: 'validation_failed', error_description: 'no' }));
      const r = await runBo(['accounts', 'cancel', 'acc_1', '--reason', 'x', '--yes'], { env: testEnv(fault.url) });
      expect(r).toMatchObject({ code: 0, stdout: 'acc_1\tok\tCancelationReason=x\n', stderr: '' });
      expect(fault.requests.map((q) => q.method)).toEqual(['PUT', 'GET']);
      fault.verify();
    } finally {
      await fault.close();
    }
  });

  it('--json prints the saved request as the API shaped it; --reason @file reads a file', async () => {
    const uid = account(1);
    const t = tempConfig();
    const file = join(t.root, 'reason.txt');
    writeFileSync(file, 'Budget cuts');
    const r = await runBo(['accounts', 'cancel', uid, '--reason', `@${file}`, '--yes', '--json'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const saved = JSON.parse(r.stdout).answer;
    expect(saved.CancelationReason).toBe('Budget cuts');
    expect((await sb.record('CancellationRequest', saved.Uid)).CancelationReason).toBe('Budget cuts');
  });

  it('asks on a terminal, naming the account (name and stage), the profile and origin; yes sends, no sends nothing (exit 2)', async () => {
    const uid = account(2);
    const { Name: name, AccountStageLabel: label } = await sb.record('Account', uid);
    const question = `Cancel account ${uid} (${name}, 2 ${label}) on profile "default" (${sb.url})?`;
    const before = (await sb.activity()).length;
    const no = scriptedPrompter([{ confirm: question, answer: false }]);
    const r = await runBo(['accounts', 'cancel', uid, '--reason', 'x'], { env: testEnv(sb), prompter: no, stdinIsTTY: true, stdoutIsTTY: true });
    no.assertDone();
    // One plain line, exit 2 as a confirmation not given; no "error: not confirmed".
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'Nothing was changed.\n' });
    // The one read that named the account; nothing else was sent.
    expect((await sb.activity()).slice(before).map((a: { method: string }) => a.method)).toEqual(['GET']);
    expect(await stage(uid)).toBe(2);
    const yes = scriptedPrompter([{ confirm: question, answer: true }]);
    const ok = await runBo(['accounts', 'cancel', uid, '--reason', 'x'], { env: testEnv(sb), prompter: yes, stdinIsTTY: true, stdoutIsTTY: true });
    yes.assertDone();
    expect(ok.code).toBe(0);
    expect(stripVTControlCharacters(ok.stdout)).toBe(`✔ Account ${uid}: CancelationReason=x, AccountStage=4 Cancelling\n`);
    expect(await stage(uid)).toBe(4);
  });

  it('--json: a declined confirmation is also the JSON error object, code "usage"', async () => {
    const uid = account(8);
    const no = scriptedPrompter([{ confirm: new RegExp(`^Cancel account ${uid} \\(`), answer: false }]);
    const r = await runBo(['--json', 'accounts', 'cancel', uid, '--reason', 'x'], { env: testEnv(sb), prompter: no, stdinIsTTY: true, stdoutIsTTY: true });
    no.assertDone();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Nothing was changed.\n{"error":{"status":null,"code":"usage","message":"nothing was changed"}}\n');
  });

  it('refuses without --yes under --no-input (exit 2), sending nothing', async () => {
    const uid = account(3);
    const before = (await sb.activity()).length;
    const r = await runBo(['accounts', 'cancel', uid, '--reason', 'x', '--no-input'], { env: testEnv(sb), stdinIsTTY: true });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`error: cancel account ${uid} on profile "default" (${sb.url}) needs confirmation; pass --yes (this cannot be undone)`);
    expect(await sb.activity()).toHaveLength(before);
  });

  it('--dry-run needs no --yes, prints the body a real run then sends, and sends nothing', async () => {
    const uid = account(4);
    const before = (await sb.activity()).length;
    const dry = await runBo(['accounts', 'cancel', uid, '--reason', 'Too expensive', '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'PUT', url: `${sb.url}/api/v1/crm/accounts/${uid}/cancel`, body: { CancelationReason: 'Too expensive' } });
    expect(await sb.activity()).toHaveLength(before);
    const real = await runBo(['accounts', 'cancel', uid, '--reason', 'Too expensive', '--yes', '--json'], { env: testEnv(sb) });
    expect(JSON.parse(real.stdout).answer).toMatchObject(planned.body);
    expect(JSON.parse(real.stdout).answer.Comment).toBeNull();
  });

  it('exits 2 for an empty reason, a missing --reason or an unreadable @file; 3 for an unknown account', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[account(5), '--reason', '', '--yes'], /^error: --reason must not be empty/],
      [[account(5), '--yes'], /^error: required option '--reason <text>' not specified/],
      [[account(5), '--reason', '@/nonexistent/file', '--yes'], /^error: --reason cannot read "\/nonexistent\/file": no such file/],
      [[account(5), '--reason', 'x', '--comment', '', '--yes'], /^error: --comment must not be empty/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['accounts', 'cancel', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
    const missing = await runBo(['accounts', 'cancel', 'acc_missing', '--reason', 'x', '--yes'], { env: testEnv(sb) });
    expect(missing.code).toBe(3);
    expect(missing.stderr.split('\n')[0]).toBe('error: account "acc_missing" not found');
  });

  it('a batch always needs --yes; with it every account is cancelled', async () => {
    const [a, b] = [account(6), account(7)];
    const before = (await sb.activity()).length;
    const refused = await runBo(['accounts', 'cancel', '-', '--reason', 'x'], { env: testEnv(sb), stdin: `${a}\n${b}\n` });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: cancel account … for every record on stdin on profile "default" \(.*\) needs --yes/);
    expect(await sb.activity()).toHaveLength(before);
    const r = await runBo(['accounts', 'cancel', '-', '--reason', 'x', '--yes'], { env: testEnv(sb), stdin: `${a}\n${b}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`2 cancelled on ${sb.url} (profile default)\n`);
    expect([await stage(a), await stage(b)]).toEqual([4, 4]);
  });

  it('--help shows examples, a batch one included', async () => {
    const r = await runBo(['accounts', 'cancel', '--help']);
    expect(r.stdout).toMatch(/\| bo accounts cancel - .*--yes/);
  });
});
