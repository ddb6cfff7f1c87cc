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

describe('bo lists create', () => {
  it('piped: creates the list with every field, prints one outcome line with its new Uid and the fields', async () => {
    const t = tempConfig();
    const body = join(t.root, 'welcome.html');
    writeFileSync(body, '<p>Welcome aboard</p>');
    const r = await runBo(
      ['lists', 'create', '--name', 'Beta testers', '--description', 'Early access', '--double-opt-in', '--internal',
        '--welcome-subject', 'Welcome to the beta', '--welcome-body', `@${body}`, '--welcome-from-name', 'Team', '--welcome-from-email', 'team@example.com'],
      { env: testEnv(sb) },
    );
    expect(r.code).toBe(0);
    const [uid, ok, fields] = r.stdout.trimEnd().split('\t') as [string, string, string];
    expect(r.stderr).toBe('');
    expect(ok).toBe('ok');
    expect(fields).toBe(
      'Name=Beta testers;Description=Early access;WelcomeSubject=Welcome to the beta;WelcomeBody=<p>Welcome aboard</p>;' +
        'WelcomeFromName=Team;WelcomeFromEmail=team@example.com;RequiresDoubleOptIn=true;IsInternal=true',
    );
    expect(await sb.record('EmailList', uid)).toMatchObject({
      Name: 'Beta testers', Description: 'Early access', RequiresDoubleOptIn: true, IsInternal: true,
      WelcomeSubject: 'Welcome to the beta', WelcomeBody: '<p>Welcome aboard</p>', WelcomeFromName: 'Team', WelcomeFromEmail: 'team@example.com',
    });
  });

  it('TTY: one ✔ line; --json: the created list as the API shaped it', async () => {
    const tty = await runBo(['lists', 'create', '--name', 'Webinar 📺'], { env: testEnv(sb), stdoutIsTTY: true });
    expect(tty.code).toBe(0);
    expect(stripVTControlCharacters(tty.stdout)).toMatch(/^✔ Email list list_\S+: Name=Webinar 📺\n$/);
    const json = await runBo(['lists', 'create', '--name', 'Partners', '--json'], { env: testEnv(sb) });
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout).answer;
    expect(list).toMatchObject({ Name: 'Partners', RequiresDoubleOptIn: false, IsInternal: false });
    expect((await sb.record('EmailList', list.Uid)).Name).toBe('Partners');
  });

  it('a taken name is exit 1 naming the name; nothing new is stored', async () => {
    const count = async () => (await sb.api('GET', '/email/lists?limit=100')).body.items.length;
    const before = await count();
    const r = await runBo(['lists', 'create', '--name', 'partners'], { env: testEnv(sb) });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: an email list named "partners" already exists; choose another --name');
    expect(await count()).toBe(before);
  });

  it('--dry-run prints the body a real run then sends and stores, and sends nothing', async () => {
    const before = (await sb.activity()).length;
    const argv = ['lists', 'create', '--name', 'Dry list', '--double-opt-in', '--welcome-subject', 'Hi'];
    const dry = await runBo([...argv, '--dry-run', '--json'], { env: testEnv(sb) });
    expect(dry.code).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned).toEqual({ method: 'POST', url: `${sb.url}/api/v1/email/lists`, body: { Name: 'Dry list', WelcomeSubject: 'Hi', RequiresDoubleOptIn: true } });
    expect(await sb.activity()).toHaveLength(before);
    const real = await runBo([...argv, '--json'], { env: testEnv(sb) });
    expect(real.code).toBe(0);
    expect((await sb.activity()).slice(before).map((a) => `${a.method} ${sb.url}${a.path}`)).toEqual([`POST ${planned.url}`]);
    expect(await sb.record('EmailList', JSON.parse(real.stdout).answer.Uid)).toMatchObject(planned.body);
  });

  it('exits 2 naming the flag, sending nothing', async () => {
    const before = (await sb.activity()).length;
    for (const [argv, message] of [
      [[], /^error: required option '--name <name>' not specified/],
      [['--name', ''], /^error: --name must be 1-100 characters \(got 0\)/],
      [['--name', 'x'.repeat(101)], /^error: --name must be 1-100 characters \(got 101\)/],
      [['--name', 'L', '--welcome-from-email', 'nope'], /^error: --welcome-from-email must be an email address/],
      [['--name', 'L', '--welcome-body', '@/nonexistent/welcome.html'], /^error: --welcome-body cannot read/],
      [['--name', 'L', '--description', ''], /^error: --description must not be empty/],
    ] as Array<[string[], RegExp]>) {
      const r = await runBo(['lists', 'create', ...argv], { env: testEnv(sb) });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(message);
    }
    expect(await sb.activity()).toHaveLength(before);
  });

  it('--help shows examples', async () => {
    const r = await runBo(['lists', 'create', '--help']);
    expect(r.stdout).toMatch(/^  bo lists create --name "Release previews" --double-opt-in$/m);
  });
});
