// The README's CI job can run twice: its batch extends the trials that end within a week,
// and a second run finds none and sends nothing (the service refuses a trial end that is
// not later than the current one, so a job that extended to a fixed date would fail every
// record when run again). The lines as the README writes them, against a served sandbox.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sandboxAndFolderForSuite } from '../helpers/sandbox.js';
import { exampleBlocks, runBlock, type ExampleBlock } from './doc-examples.js';
import { boOnPath } from './tour.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** The README's CI block from the `soon=` line on: the job that extends trials. */
function extendJob(): ExampleBlock {
  const section = readme.slice(readme.indexOf('## Using it in CI'));
  const block = exampleBlocks(section).find((b) => b.lines.some((l) => l.command.startsWith('soon=')))!;
  const from = block.lines.findIndex((l) => l.command.startsWith('soon='));
  return { ...block, lines: block.lines.slice(from) };
}

const suite = sandboxAndFolderForSuite('bo-ci-rerun-');

describe("the README's CI job", () => {
  it('extends the trials ending within a week, and a second run sends nothing and exits 0', async () => {
    const { sb, dir: root } = suite;
    const job = extendJob();
    expect(job.lines.map((l) => l.command).join('\n')).toContain('extend-trial -');
    const { key, secret } = sb.fixtures.apiKey;
    const env = {
      PATH: `${boOnPath(join(root, 'bin'), repo)}:${process.env.PATH}`,
      HOME: root,
      BO_CONFIG_DIR: join(root, 'config'),
      BO_DATA_DIR: join(root, 'data'),
      BO_STATE_DIR: join(root, 'state'),
      BO_BASE_URL: sb.url,
      BO_API_KEY: key,
      BO_API_SECRET: secret,
    };
    const puts = async () => (await sb.activity()).filter((a) => a.method === 'PUT').length;

    const first = await runBlock(job, { cwd: root, env, reapply: '', timeoutMs: 120_000 });
    expect(first.map((r) => r.code)).toEqual(first.map(() => 0));
    const sent = await puts();
    expect(sent).toBeGreaterThan(0);

    const second = await runBlock(job, { cwd: root, env, reapply: '', timeoutMs: 120_000 });
    expect(second.map((r) => r.code)).toEqual(second.map(() => 0));
    expect(await puts()).toBe(sent);
  }, 300_000);
});
