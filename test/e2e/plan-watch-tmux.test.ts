// `bo plan watch` as a person meets it: the built binary in a tmux pane (a real terminal)
// while an agent makes plans through `bo mcp --writes plan` (the MCP SDK's client). Each
// plan made while it waits is offered, shown as `bo plan apply` shows it, and answered:
// apply (sent, recorded applied), discard (recorded discarded, nothing sent), or skip
// (the default: Enter; it stays pending). More than 10 pending plans are announced as a
// count first. Without a terminal, or with --yes, it refuses to start (exit 2).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp } from '../helpers/mcp-client.js';
import { ensureBuilt, runBin } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tmuxServer } from '../helpers/tmux.js';
import { testEnv } from '../helpers/test-env.js';

const root = join(import.meta.dirname, '..', '..');
const socket = `bo-e2e-plan-watch-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'bo-e2e-plan-watch-'));
let sb: TestSandbox;
let session = 0;

const tmux = tmuxServer(socket, 60_000);
const { screen, waitFor } = tmux;


const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `bo plan watch` in a new 120×40 pane with `env` alone; afterwards the pane shows EXIT=<code>. */
function start(env: Record<string, string>): string {
  const name = `w${++session}`;
  const vars = { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env };
  const inner = `node ${quote(join(root, 'bin', 'bo.js'))} plan watch; echo EXIT=$?; sleep 600`;
  const command = ['env -i', ...Object.entries(vars).map(([k, v]) => `${k}=${quote(v)}`), `bash -c ${quote(inner)}`].join(' ');
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', `bash -c ${quote(command)}`);
  return name;
}

/** A plan to create a list, made through `bo mcp --writes plan` as an agent makes it: its id. */
async function plan(env: Record<string, string>, name: string): Promise<string> {
  const run = await startMcp(['mcp', '--writes', 'plan'], env);
  const r = (await run.client.callTool({ name: 'lists_create', arguments: { name } })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: { planId: string } };
  await run.close();
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return r.structuredContent!.planId;
}

const stateOf = (state: string, id: string) => (JSON.parse(readFileSync(join(state, 'plans', `${id}.json`), 'utf8')) as { state: string }).state;
const listsNamed = async (name: string) => ((await sb.api('GET', '/email/lists?limit=100')).body.items as Array<{ Name: string }>).filter((l) => l.Name === name);

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox();
}, 180_000);

afterAll(async () => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  await sb?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('bo plan watch on a terminal', () => {
  it('offers each plan made while it waits: apply sends it, discard records it, Enter skips it; Ctrl-C ends it', async () => {
    const state = mkdtempSync(join(work, 'state-'));
    const env = testEnv(sb, { BO_STATE_DIR: state });
    const name = start(env);
    await waitFor(name, 'Watching for plans of profile "default"');

    // Apply: the second choice.
    const applied = await plan(env, 'Watched and applied');
    let shown = await waitFor(name, /Apply this plan on profile "default"/);
    expect(shown).toContain(`Plan ${applied}, made `);
    expect(shown).toContain(`POST ${sb.url}/api/v1/email/lists`);
    expect(shown).toContain('{"Name":"Watched and applied"}');
    tmux('send-keys', '-t', name, 'Down');
    tmux('send-keys', '-t', name, 'Enter');
    await waitFor(name, `Applied plan ${applied}.`);
    expect(stateOf(state, applied)).toBe('applied');
    expect(await listsNamed('Watched and applied')).toHaveLength(1);

    // Discard: the third choice; nothing sent.
    const discarded = await plan(env, 'Watched and discarded');
    await waitFor(name, `Plan ${discarded}, made `);
    tmux('send-keys', '-t', name, 'Down');
    tmux('send-keys', '-t', name, 'Down');
    tmux('send-keys', '-t', name, 'Enter');
    await waitFor(name, `Discarded plan ${discarded}.`);
    expect(stateOf(state, discarded)).toBe('discarded');
    expect(await listsNamed('Watched and discarded')).toEqual([]);

    // Enter alone: the default, skip; the plan stays pending and nothing is sent.
    const skipped = await plan(env, 'Watched and skipped');
    await waitFor(name, `Plan ${skipped}, made `);
    tmux('send-keys', '-t', name, 'Enter');
    await waitFor(name, `Skipped plan ${skipped}: it stays pending.`);
    expect(stateOf(state, skipped)).toBe('pending');
    expect(await listsNamed('Watched and skipped')).toEqual([]);
    // What it showed is exactly what bo plan apply shows of the plan (here refused without --yes: nothing sent).
    const apply = await runBin(['plan', 'apply', skipped], { env, stdin: '' });
    expect(apply.code).toBe(2);
    const applyShows = apply.stderr.slice(0, apply.stderr.indexOf('\nerror: '));
    expect(applyShows).toMatch(/^Plan [0-9a-f]{32}, made .*\n {2}POST /);
    expect(screen(name)).toContain(applyShows);

    tmux('send-keys', '-t', name, 'C-c');
    shown = await waitFor(name, /EXIT=\d+/);
    expect(shown).toContain('EXIT=130');
    // A skipped plan is not offered twice by one watch.
    expect(shown.split(`Plan ${skipped}, made `)).toHaveLength(2);
    expect(shown).not.toMatch(/internal error|    at /);
  });

  it('more than 10 pending plans are announced as a count before the first is offered, oldest first', async () => {
    const state = mkdtempSync(join(work, 'state-'));
    const env = testEnv(sb, { BO_STATE_DIR: state });
    const ids: string[] = [];
    for (let i = 1; i <= 11; i++) ids.push(await plan(env, `Waiting ${i}`));
    const name = start(env);
    const shown = await waitFor(name, /Apply this plan/);
    expect(shown).toContain('11 plans are pending: each is offered in turn, oldest first.');
    expect(shown.indexOf('11 plans are pending')).toBeLessThan(shown.indexOf(`Plan ${ids[0]}, made `));
    tmux('send-keys', '-t', name, 'C-c');
    expect(await waitFor(name, /EXIT=\d+/)).toContain('EXIT=130');
    expect(ids.map((id) => stateOf(state, id))).toEqual(ids.map(() => 'pending'));
  });

  it('without a terminal, or with --yes, it does not start (exit 2)', async () => {
    const env = testEnv(sb, { BO_STATE_DIR: mkdtempSync(join(work, 'state-')) });
    const piped = await runBin(['plan', 'watch'], { env, stdin: '' });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toBe(
      'error: bo plan watch needs a terminal: it asks about each plan\nhint: without one, bo plan list shows the plans and bo plan apply <id> --yes applies one\n',
    );
    const yes = await runBin(['plan', 'watch', '--yes'], { env, stdin: '' });
    expect(yes.code).toBe(2);
    expect(yes.stderr).toMatch(/^error: unknown option '--yes'\n/);
  });
});
