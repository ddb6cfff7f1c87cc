import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/test-env.js';
import { reply, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { runBo } from '../../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

let sb: TestSandbox;
let fault: FaultServer;
let sent: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  fault = await startFaultServer();
  for (const uid of sb.fixtures.broadcasts) if ((await sb.record('BroadcastCampaign', uid)).Status === 3) sent = uid;
  expect(sent).toBeTruthy();
});
afterAll(async () => {
  await sb.close();
  await fault.close();
});

describe('bo broadcasts get', () => {
  it('prints Key<TAB>Value lines when piped, with Status as its number and name', async () => {
    const stored = await sb.record('BroadcastCampaign', sent);
    const r = await runBo(['broadcasts', 'get', sent], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Uid\t${sent}`);
    expect(lines).toContain('Status\t3 Sent');
    expect(lines).toContain(`Name\t${stored.Campaign.Name}`);
    expect(lines).toContain(`Subject\t${stored.Message.Subject}`);
    expect(lines).toContain(`From\t${stored.Campaign.FromName} <${stored.Campaign.FromEmail}>`);
    // A list, every item, as a JSON array.
    expect(lines).toContain(`Lists\t${JSON.stringify(stored.EmailListUids)}`);
    expect(lines).toContain(`Sent\t${stored.Message.CountSent}`);
    // The message body is for --json; the key/value view stays readable.
    expect(r.stdout).not.toContain(stored.Message.Body);
  });

  it('labels every Status code from the service\'s list', async () => {
    const labels = ['Draft', 'Pending', 'Sent', 'Queuing', 'Queued', 'Sending', 'Error', 'WaitingToResume', 'QueuedEmails', 'Archived'];
    let seen = 0;
    for (const uid of sb.fixtures.broadcasts) {
      const status = (await sb.record('BroadcastCampaign', uid)).Status as number;
      const r = await runBo(['broadcasts', 'get', uid], { env: testEnv(sb) });
      expect(r.stdout.split('\n')).toContain(`Status\t${status} ${labels[status - 1]}`);
      seen++;
    }
    expect(seen).toBeGreaterThan(2);
  });

  it('draws a two-column table on a TTY', async () => {
    const r = await runBo(['--no-color', 'broadcasts', 'get', sent], { env: testEnv(sb), stdoutIsTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`│ Uid\\s+│ ${sent}\\s+│`));
    expect(r.stdout).toMatch(/│ Status\s+│ 3 Sent\s+│/);
  });

  it('prints the record as the API sent it with --json', async () => {
    const r = await runBo(['--json', 'broadcasts', 'get', sent], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await sb.api('GET', `/email/campaigns/broadcasts/${sent}`)).body);
    expect(JSON.parse(r.stdout).Status).toBe(3);
  });

  it('exits 3 naming the Uid when there is no such broadcast', async () => {
    const r = await runBo(['broadcasts', 'get', 'bcast_missing'], { env: testEnv(sb) });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe('error: no broadcast with Uid bcast_missing');
  });

  it('refuses a malformed Uid with exit 2, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const bad of ['a/b', 'tab\there', '']) {
      const r = await runBo(['broadcasts', 'get', bad], { env: testEnv(sb) });
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(r.stderr).toMatch(/^error: <broadcastUid> must/);
    }
    expect((await sb.activity()).length).toBe(before);
  });

  it('shows a server\'s 400 as exit 1 with its message, and an unknown Status as the bare number', async () => {
    fault.script(reply.json(400, { Message: 'Broadcast is being migrated' }));
    const r = await runBo(['broadcasts', 'get', 'bc_1'], { env: testEnv(fault.url, { BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret }) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: 400 Bad Request: Broadcast is being migrated');
    fault.script(reply.json(200, { Uid: 'bc_1', Status: 42, Campaign: { Name: 'Tenant special' } }));
    const odd = await runBo(['broadcasts', 'get', 'bc_1'], { env: testEnv(fault.url, { BO_API_KEY: sb.fixtures.apiKey.key, BO_API_SECRET: sb.fixtures.apiKey.secret }) });
    expect(odd.code).toBe(0);
    expect(odd.stdout.split('\n')).toContain('Status\t42');
    expect(fault.requests.at(-1)!.url).toBe('/api/v1/email/campaigns/broadcasts/bc_1');
  });
});
