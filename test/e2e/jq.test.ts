// --jq on the built binary against a sandbox over real HTTP: the results of real jq
// (the expected output comes from Debian's jq on the same input, or, for what changed
// since jq 1.6, from jq 1.8.2 recorded below), errors before and after the request,
// the environment jq sees, colour on a terminal (a pseudo-terminal from `script`), and
// the copy of bin/ and dist/ that runs without node_modules.

import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { binPath, runBin, runOnTerminal, type RunBinOptions } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

let sb: TestSandbox;
let fault: FaultServer;
let env: Record<string, string>;

beforeAll(async () => {
  sb = await startTestSandbox();
  fault = await startFaultServer();
  env = testEnv(sb);
});
afterAll(async () => {
  await sb.close();
  await fault.close();
});

const bo = (args: string[], options: RunBinOptions = {}) => runBin(args, { env, ...options });

/** Debian's jq (1.6 or 1.7) on `input`, printing as --jq does: strings raw, the rest compact. */
const realJq = (expression: string, input: string) => execFileSync('jq', ['-r', '-c', expression], { input, encoding: 'utf8' });

/** The built bo on a pseudo-terminal (`script`): what the terminal received, CRs removed. */
function onTerminal(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  // No pager: what is measured is the JSON on the terminal (test/e2e/pager-tmux.test.ts pages it).
  return runOnTerminal(args, { ...env, BO_PAGER: 'cat', ...extraEnv });
}

const ESC = '\u001b[';

describe('--jq gives what real jq gives on the same output', () => {
  // jq 1.6, 1.7 and 1.8 agree on these.
  const onArray = [
    '.[].Name',
    '.[0] | {Uid, Name}',
    'map(.AccountStage) | add',
    '[.[] | select(.AccountStage == 2) | .Uid]',
    '.[0].Nope // 42',
    '.[0].foo?',
    'length',
    '.[] | [.Uid, .Currency] | @tsv',
    '.[] | [.Uid, .Name] | @csv',
    'group_by(.Currency) | map({c: .[0].Currency, n: length})',
    '[.[].LifetimeRevenue] | max',
    '[limit(2; .[])] | length',
    'reduce .[] as $a (0; . + 1)',
    '[.[] | .Uid | split("_")[0]] | unique',
    '"\\(.[0].Name) is at stage \\(.[0].AccountStage)"',
    '.[0] | .Uid, .Name, .IsDemo, .BillingAddress',
    '[.. | strings] | length',
    'empty',
    '.[0] | to_entries | map(select(.value == null)) | map(.key)',
  ];
  const onLines = ['.Uid', 'select(.AccountStage == 3) | .Name', '{Uid}', '.Nope // "none"', '[.Uid, .Name] | @tsv', '.BillingAddress.City, .LifetimeRevenue'];
  let array: string;
  let lines: string;

  beforeAll(async () => {
    array = (await bo(['--json', 'accounts', 'list', '--limit', '7'])).stdout;
    lines = (await bo(['--jsonl', 'accounts', 'list', '--limit', '7'])).stdout;
    expect(JSON.parse(array)).toHaveLength(7);
  });

  it.each(onArray)('on the array --json prints: %s', async (expression) => {
    const r = await bo(['accounts', 'list', '--limit', '7', '--jq', expression]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(realJq(expression, array));
  });

  it.each(onLines)('on each line --jsonl prints: %s', async (expression) => {
    const r = await bo(['--jsonl', 'accounts', 'list', '--limit', '7', '--jq', expression]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(realJq(expression, lines));
  });

  it('on the record `accounts get --json` prints, and on a dry run\'s plan', async () => {
    const uid = sb.fixtures.trialAccounts[0]!;
    const record = (await bo(['--json', 'accounts', 'get', uid])).stdout;
    const r = await bo(['accounts', 'get', uid, '--jq', '{Uid, Name, stage: .AccountStage}']);
    expect(r.stdout).toBe(realJq('{Uid, Name, stage: .AccountStage}', record));
    const plan = await bo(['accounts', 'extend-trial', uid, '--to', '2030-01-31', '--dry-run', '--jq', '.method, .body.TrialEndDate // .body']);
    expect(plan.code, plan.stderr).toBe(0);
    const planJson = (await bo(['--json', 'accounts', 'extend-trial', uid, '--to', '2030-01-31', '--dry-run'])).stdout;
    expect(plan.stdout).toBe(realJq('.method, .body.TrialEndDate // .body', planJson));
  });

  // What jq 1.8 does differently from Debian's jq 1.6: recorded from jq-wasm
  // 3.0.0-jq-1.8.2 (jq 1.8.2) on the seeded sandbox (seed 1).
  it.each([
    // Number literals keep their digits (jq 1.6: 1.5 and 100000000000000000000).
    ['1.50, 100000000000000000001', '1.50\n100000000000000000001\n'],
    // Functions new since 1.6: pick, abs, trim, ltrimstr on a non-string, have_decnum.
    ['.[0] | pick(.Uid, .BillingAddress.City)', `{"Uid":"${'UID0'}","BillingAddress":{"City":"Berlin"}}\n`],
    ['[-3, 2.5] | map(abs)', '[3,2.5]\n'],
    ['"  x  " | trim', 'x\n'],
    ['have_decnum', 'true\n'],
    ['$__loc__', '{"file":"<top-level>","line":1}\n'],
  ])('jq 1.8.2 where it differs from 1.6: %s', async (expression, expected) => {
    const first = JSON.parse(array)[0].Uid as string;
    const r = await bo(['accounts', 'list', '--limit', '7', '--jq', expression]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(expected.replace('UID0', first));
  });
});

describe('--jq errors', () => {
  it('a syntax error is exit 2 with jq\'s message, before any request', async () => {
    const before = fault.requests.length;
    const r = await bo(['accounts', 'list', '--jq', '.['], { env: testEnv(fault.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --jq: syntax error, unexpected end of file/m);
    expect(r.stdout).toBe('');
    expect(fault.requests.length).toBe(before);
    const unknown = await bo(['api', '/crm/accounts', '--jq', 'nosuchfunction'], { env: testEnv(fault.url) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: --jq: nosuchfunction\/0 is not defined/m);
    expect(fault.requests.length).toBe(before);
  });

  it('a runtime error is exit 1 with jq\'s message; what the records before it printed stays printed', async () => {
    const uids = (await bo(['--jsonl', 'accounts', 'list', '--limit', '5', '--jq', '.Uid'])).stdout.trim().split('\n');
    const third = uids[2]!;
    const stream = await bo(['--jsonl', 'accounts', 'list', '--all', '--jq', `if .Uid == "${third}" then .[0] else .Uid end`]);
    expect(stream.code).toBe(1);
    expect(stream.stdout).toBe(`${uids[0]}\n${uids[1]}\n`);
    expect(stream.stderr).toMatch(/^error: --jq: Cannot index object with number/m);
    const array = await bo(['accounts', 'list', '--limit', '5', '--jq', `.[] | if .Uid == "${third}" then error("stop here") else .Uid end`]);
    expect(array.code).toBe(1);
    expect(array.stdout).toBe(`${uids[0]}\n${uids[1]}\n`);
    expect(array.stderr).toMatch(/^error: --jq: stop here$/m);
    // The error object on stderr is not filtered.
    expect(array.stderr).toContain('{"error":{"status":null,"code":"jq","message":"--jq: stop here"}}');
    const record = await bo(['accounts', 'get', uids[0]!, '--jq', '.[0]']);
    expect(record.code).toBe(1);
    expect(record.stdout).toBe('');
  });

  it('--jq with --csv is exit 2 naming both, nothing sent', async () => {
    const before = fault.requests.length;
    const r = await bo(['--csv', 'accounts', 'list', '--jq', '.'], { env: testEnv(fault.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--csv.*--jq|--jq.*--csv/);
    expect(fault.requests.length).toBe(before);
  });
});

describe('$ENV and env', () => {
  it('are the environment without the secrets bo knows of', async () => {
    const secret = 'not-for-jq-0123456789';
    const r = await bo(['--base-url', sb.url, 'sandbox', 'fixtures', '--jq', '$ENV | [.BO_TOKEN, .BO_API_SECRET, .BO_TOTP_SECRET, .HTTPS_PROXY, .https_proxy, .COPY_OF_IT, .GREETING], env.GREETING'], {
      env: {
        ...env,
        BO_TOKEN: secret,
        BO_API_SECRET: 'api-secret-value',
        BO_TOTP_SECRET: 'JBSWY3DPEHPK3PXP',
        HTTPS_PROXY: 'http://proxyuser:proxypass@proxy.example:3128',
        https_proxy: 'proxyuser:proxypass@proxy.example:3128',
        NO_PROXY: '*',
        COPY_OF_IT: `Bearer ${secret}`,
        GREETING: 'hello',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[null,null,null,"http://proxy.example:3128/","http://proxy.example:3128/",null,"hello"]\nhello\n');
    expect(r.stdout).not.toMatch(/proxypass|proxyuser|api-secret-value|not-for-jq/);
  });
});

describe('an expression that never ends', () => {
  it('ends with Ctrl-C, as jq does, while jq runs', async () => {
    let stderr = '';
    const r = await runBin(['--base-url', sb.url, 'sandbox', 'fixtures', '--jq', 'until(false; .)'], {
      env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        // Once bo is past its start (its stderr names the sandbox), jq is running or about to.
        child.stderr!.on('data', (d) => {
          stderr += d;
          if (stderr.includes('Using the sandbox')) setTimeout(() => child.kill('SIGINT'), 500);
        });
      },
    });
    // 130 from bo's own handler, or killed by SIGINT (the shell's 130) while jq ran; never the test's SIGKILL.
    expect(r.code === 130 || r.signal === 'SIGINT', `code ${r.code}, signal ${r.signal}`).toBe(true);
  });
});

describe('streaming and bo api', () => {
  it('--jsonl --jq runs on each line; --json --jq on the whole array', async () => {
    const total = (await sb.api('GET', '/crm/accounts?limit=1')).body.metadata.total as number;
    const each = await bo(['--jsonl', 'accounts', 'list', '--all', '--jq', '.Uid']);
    expect(each.stdout.trim().split('\n')).toHaveLength(total);
    const once = await bo(['accounts', 'list', '--all', '--jq', 'length']);
    expect(once.stdout).toBe(`${total}\n`);
  });

  it('bo api --paginate --jq runs once on the merged array, or once per item with --jsonl', async () => {
    const merged = (await bo(['api', '/crm/accounts', '--paginate'])).stdout;
    const once = await bo(['api', '/crm/accounts', '--paginate', '--jq', 'length']);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout).toBe(`${JSON.parse(merged).length}\n`);
    const items = (await bo(['--jsonl', 'api', '/crm/accounts', '--paginate'])).stdout;
    const each = await bo(['--jsonl', 'api', '/crm/accounts', '--paginate', '--jq', '.Name']);
    expect(each.stdout).toBe(realJq('.Name', items));
    const one = await bo(['api', '/crm/accounts?limit=2', '--jq', '.items | map(.Uid)']);
    const plain = (await bo(['api', '/crm/accounts?limit=2'])).stdout;
    expect(one.stdout).toBe(realJq('.items | map(.Uid)', plain));
  });
});

describe('colour and layout', () => {
  it('--json on a terminal is indented and coloured; under NO_COLOR it is what a pipe gets, byte for byte', async () => {
    const args = ['--json', 'accounts', 'list', '--limit', '2', '--fields', 'Uid,IsDemo,LifetimeRevenue,ClientIdentifier'];
    const piped = (await bo(args)).stdout;
    const tty = await onTerminal(args);
    expect(tty.code).toBe(0);
    const [a] = JSON.parse(piped) as Array<{ Uid: string; LifetimeRevenue: number }>;
    expect(tty.out).toContain(`[\n  {\n    ${ESC}1;34m"Uid"${ESC}22;39m: ${ESC}32m"${a!.Uid}"${ESC}39m,\n`);
    expect(tty.out).toContain(`${ESC}1;34m"IsDemo"${ESC}22;39m: ${ESC}33mfalse${ESC}39m,`);
    expect(tty.out).toContain(`${ESC}1;34m"LifetimeRevenue"${ESC}22;39m: ${ESC}36m${a!.LifetimeRevenue}${ESC}39m`);
    // Without the colours it is the same JSON, indented as jq indents it.
    const shown = tty.out.replace(/\u001b\[[0-9;]*m/g, '');
    expect(shown.slice(0, shown.indexOf('\n]\n') + 3)).toBe(`${JSON.stringify(JSON.parse(piped), null, 2)}\n`);
    const plain = await onTerminal(args, { NO_COLOR: '1' });
    expect(plain.out.startsWith(piped)).toBe(true);
  });

  it('--jq results on a terminal: JSON indented and coloured, strings raw with API text neutralised', async () => {
    const name = `Evil\u001b]0;pwned\u0007 list\u202e\ttabbed`;
    await sb.api('POST', '/email/lists', { body: { Name: name } });
    const tty = await onTerminal(['api', '/email/lists?limit=100', '--jq', `.items[] | select(.Name | startswith("Evil")) | .Name, {Name}`]);
    expect(tty.code).toBe(0);
    expect(tty.out).toContain('Evil list\\u202e\ttabbed\n');
    expect(tty.out).not.toContain('\u001b]0;');
    expect(tty.out).not.toContain('\u202e');
    expect(tty.out).toContain(`{\n  ${ESC}1;34m"Name"${ESC}22;39m: ${ESC}32m"Evil\\u001b]0;pwned\\u0007 list\\u202e\\ttabbed"${ESC}39m\n}\n`);
    // Piped, the string is printed exactly as it is, as jq -r prints it.
    const piped = await bo(['api', '/email/lists?limit=100', '--jq', '.items[] | select(.Name | startswith("Evil")) | .Name']);
    expect(piped.stdout).toBe(`${name}\n`);
  });

  it('CLICOLOR_FORCE=1 colours a pipe; NO_COLOR and --no-color win over it', async () => {
    const args = ['accounts', 'list', '--limit', '1', '--jq', '.[0] | {Uid}'];
    const forced = await bo(args, { env: { ...env, CLICOLOR_FORCE: '1' } });
    expect(forced.stdout).toMatch(new RegExp(`^\\{\\n  \\u001b\\[1;34m"Uid"\\u001b\\[22;39m: \\u001b\\[32m"acc_\\w+"\\u001b\\[39m\\n\\}\\n$`));
    const plain = (await bo(args)).stdout;
    expect(plain).toMatch(/^\{"Uid":"acc_\w+"\}\n$/);
    expect((await bo(args, { env: { ...env, CLICOLOR_FORCE: '1', NO_COLOR: '' } })).stdout).toBe(plain);
    expect((await bo(['--no-color', ...args], { env: { ...env, CLICOLOR_FORCE: '1' } })).stdout).toBe(plain);
    expect((await bo(args, { env: { ...env, CLICOLOR_FORCE: '0' } })).stdout).toBe(plain);
  });
});

describe('the jq chunk', () => {
  it('runs from a copy of bin/ and dist/ alone: jq.wasm is read from beside the bundle, not node_modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-jq-copy-'));
    try {
      const root = dirname(dirname(binPath));
      cpSync(join(root, 'bin'), join(dir, 'bin'), { recursive: true });
      cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
      // Asynchronous: the sandbox answers from this process.
      const r = await promisify(execFile)(process.execPath, [join(dir, 'bin', 'bo.js'), '--base-url', sb.url, 'sandbox', 'fixtures', '--jq', '.apiKey.scheme'], {
        env: { PATH: process.env.PATH, HOME: dir, BO_CONFIG_DIR: join(dir, 'config'), BO_DATA_DIR: join(dir, 'data') },
        cwd: dir,
        encoding: 'utf8',
      });
      expect(r.stdout).toBe(`${sb.fixtures.apiKey.scheme}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
