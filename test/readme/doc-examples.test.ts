// Every example of the README and of docs/ runs as written, in order, with the built
// `bo` on PATH: each page on a fresh config and data folder (so the embedded sandbox is
// fresh too) and a fresh served sandbox standing in for the tenant (`BO_BASE_URL` and its
// API key). A line ends with the exit code the text states (`# → exit N`, else 0), and a
// transcript prints what it shows; a line or block that cannot run here says why
// (`not run: …`). The README stays short enough to read in ten minutes.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCerts } from '../hardening/tls-certs.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { exampleBlocks, judge, runBlock } from './doc-examples.js';
import { boOnPath } from './tour.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (page: string) => readFileSync(join(repo, page), 'utf8');

describe('the README', () => {
  it('is at most 320 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(320);
  });
});

describe('the examples of the README and docs/', () => {
  let tenant: TestSandbox;
  let caFile: string;
  const made: string[] = [];
  beforeAll(async () => {
    tenant = await startTestSandbox();
    caFile = makeCerts().ca;
  });
  afterAll(async () => {
    await tenant.close();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('the parser reads marks, continuations and transcripts', () => {
    const blocks = exampleBlocks(
      [
        '<!-- not run: needs a tenant -->',
        '```sh',
        'bo login',
        '```',
        '```sh',
        '# a comment',
        'bo accounts get x   # → exit 3',
        'bo accounts list \\',
        '  --all   # not run: runs long',
        '```',
        '```console',
        '$ bo --version',
        '0.3.0',
        '```',
      ].join('\n'),
    );
    expect(blocks.map((b) => [b.kind, b.notRun])).toEqual([
      ['sh', 'needs a tenant'],
      ['sh', undefined],
      ['console', undefined],
    ]);
    expect(blocks[1]!.lines.map((l) => [l.command, l.exit, l.notRun])).toEqual([
      ['bo accounts get x   # → exit 3', 3, undefined],
      ['bo accounts list   --all   # not run: runs long', 0, 'runs long'],
    ]);
    expect(blocks[2]!.lines[0]).toMatchObject({ command: 'bo --version', shows: ['0.3.0'] });
  });

  let ranInAll = 0;
  for (const page of pages) {
    it(`${page}: every example runs as written`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'bo-docs-'));
      made.push(root);
      const home = join(root, 'home');
      const cwd = join(root, 'work');
      mkdirSync(home, { recursive: true });
      mkdirSync(cwd, { recursive: true });
      // The company CA the set-up section names, as a real PEM file.
      copyFileSync(caFile, join(home, 'company-ca.pem'));
      const key = tenant.fixtures.apiKey;
      const env: Record<string, string> = {
        PATH: `${boOnPath(join(root, 'bin'), repo)}:${process.env.PATH}`,
        HOME: home,
        BO_CONFIG_DIR: join(root, 'config'),
        BO_DATA_DIR: join(root, 'data'),
        BO_STATE_DIR: join(root, 'state'),
        // No keychain: a token the examples store goes where they say without one.
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(root, 'no-bus')}`,
        LANG: 'C.UTF-8',
        TZ: 'UTC',
      };
      const reapply = `export BO_BASE_URL='${tenant.url}' BO_API_KEY='${key.key}' BO_API_SECRET='${key.secret}'`;
      const failures: string[] = [];
      let ran = 0;
      await tenant.reset();
      for (const block of exampleBlocks(read(page))) {
        if (block.notRun) continue;
        const runs = await runBlock(block, { cwd, env: { ...env, BO_BASE_URL: tenant.url, BO_API_KEY: key.key, BO_API_SECRET: key.secret }, reapply, timeoutMs: 120_000 });
        for (const run of runs) {
          ran++;
          const wrong = judge(run);
          if (wrong) failures.push(`${page} ${wrong}`);
        }
      }
      expect(failures).toEqual([]);
      ranInAll += ran;
    }, 600_000);
  }

  it('runs most of what the pages show: the marks do not hide the examples', () => {
    const written = pages.flatMap((page) => exampleBlocks(read(page)).flatMap((b) => b.lines)).length;
    expect(ranInAll).toBeGreaterThan(written / 2);
  });
});
