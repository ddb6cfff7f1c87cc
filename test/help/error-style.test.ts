// One style for what bo says went wrong, whoever wrote the words: an `error:` line starts
// in lower case after the colon (a word in capitals such as BO_TOKEN stays), and a
// suggestion reads "(did you mean …?)" inside a line and on a line of its own alike.
// The built binary, as a user meets these.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfig } from '../helpers/config-dir.js';
import { runBin } from '../helpers/run-bin.js';

function env() {
  const config = tempConfig();
  return { ...config.env, BO_DATA_DIR: join(config.root, 'data') };
}

describe('error text starts in lower case', () => {
  it('a sentence starting with a one-letter word: "error: a password is needed."', async () => {
    const r = await runBin(['--sandbox', 'login', '--username', 'email@sandbox.example'], { env: env(), stdin: '' });
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: a password is needed\./);
  });

  it('a suggestion inside a batch outcome: "(did you mean Amount or amount?)"', async () => {
    const r = await runBin(['--sandbox', 'deals', 'update', '-'], { env: env(), stdin: '{"Uid":"deal_z9w6mp246","amont":5}\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('unknown key "amont" (did you mean Amount or amount?)');
    expect(r.stdout + r.stderr).not.toMatch(/Did you mean/);
  });

  it("commander's suggestions too: a mistyped verb and -v", async () => {
    const verb = await runBin(['accounts', 'lst'], { env: env() });
    expect(verb.code).toBe(2);
    expect(verb.stderr).toBe("error: unknown command 'lst'\n(did you mean list?)\n(bo accounts list lists accounts; bo accounts get <accountUid> shows one account by Uid)\n");
    const version = await runBin(['-v'], { env: env() });
    expect(version.code).toBe(2);
    expect(version.stderr).toContain('(did you mean bo --version?)');
  });
});
