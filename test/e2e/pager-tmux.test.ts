// The pager, as a person meets it: the built binary in a tmux pane (a real terminal)
// against a sandbox over loopback HTTP. A fake pager (a shell script) records what it
// was given and its environment; Debian's real `less` is quit with q (exit 0, the list
// stops fetching pages) and with Ctrl-C (exit 130, the terminal restored). Output that
// is piped, batches and BO_PAGER=cat never go through a pager.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { ensureBuilt } from '../helpers/run-bin.js';
import { tmuxServer } from '../helpers/tmux.js';

const root = join(import.meta.dirname, '..', '..');
const socket = `bo-e2e-pager-${process.pid}`;
const work = mkdtempSync(join(tmpdir(), 'bo-e2e-pager-'));
/** 10,000 accounts: 100 pages of 100, far more than a screen and than the pipes hold. */
const ACCOUNTS = 10_000;
let sb: TestSandbox;
let session = 0;

const tmux = tmuxServer(socket, 30_000);
const { screen, waitFor } = tmux;



/** Waits for less's prompt (":") on the last row of the visible pane: the screen is full and less waits for a key. */
async function lessPrompt(name: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = tmux('capture-pane', '-p', '-t', name).replace(/\n+$/, '').split('\n');
    if (rows.at(-1)?.trim() === ':') return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for less's prompt; the pane shows:\n${rows.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `script` (bash, `bo` the built binary) in a new 120×30 pane with a clean
 * environment plus `env`; afterwards the pane shows EXIT=<code> and the tty's modes.
 */
function start(script: string, env: Record<string, string> = {}): string {
  const name = `p${++session}`;
  const vars = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    BO_CONFIG_DIR: join(work, `config-${name}`),
    BO_BASE_URL: sb.url,
    BO_API_KEY: sb.fixtures.apiKey.key,
    BO_API_SECRET: sb.fixtures.apiKey.secret,
    ...env,
  };
  const inner = [
    `bo() { node ${quote(join(root, 'bin', 'bo.js'))} "$@"; };`,
    script,
    '; echo EXIT=$?; stty -a | tr " " "\\n" | grep -x -- "-\\?echo" | sed "s/^/TTY-ECHO=/"; sleep 600',
  ].join(' ');
  // env -i: nothing of the test's own environment (a PAGER, LESS…) reaches the pane.
  const command = ['env -i', ...Object.entries(vars).map(([k, v]) => `${k}=${quote(v)}`), `bash -c ${quote(inner)}`].join(' ');
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '30', `bash -c ${quote(command)}`);
  return name;
}

/** A pager that records its input, its environment and whether its stdout is a terminal, then shows the input. */
function fakePager(): { command: string; got: () => string | undefined; env: () => string } {
  const dir = mkdtempSync(join(work, 'fake-'));
  const file = join(dir, 'fake-pager');
  writeFileSync(file, `#!/bin/sh\n[ -t 1 ] && echo tty > "${dir}/stdout"\nenv > "${dir}/env"\ntee "${dir}/got"\n`);
  chmodSync(file, 0o755);
  return {
    command: file,
    got: () => (existsSync(join(dir, 'got')) ? readFileSync(join(dir, 'got'), 'utf8') : undefined),
    env: () => readFileSync(join(dir, 'env'), 'utf8') + (existsSync(join(dir, 'stdout')) ? 'STDOUT=tty\n' : ''),
  };
}

const visible = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ accounts: ACCOUNTS });
}, 180_000);

afterAll(async () => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  await sb?.close();
});

describe('the pager on a terminal', () => {
  it('a list goes through BO_PAGER as the terminal would show it; the note after it waits for the pager', async () => {
    const pager = fakePager();
    const name = start('bo accounts list --limit 5', { BO_PAGER: pager.command, PAGER: '/bin/false' });
    const shown = await waitFor(name, /EXIT=\d+/);
    expect(shown).toContain('EXIT=0');
    const got = visible(pager.got() ?? '');
    // The table as on a terminal: a header row and box lines, five records.
    expect(got).toMatch(/│ Uid\s+│ Name/);
    expect(got.match(/│ acc_/g)).toHaveLength(5);
    expect(pager.env()).toContain('STDOUT=tty');
    expect(pager.env()).toMatch(/^LESS=FRX$/m);
    // bo's own secrets stay with bo; the rest of its environment reaches the pager.
    expect(pager.env()).not.toContain(sb.fixtures.apiKey.secret);
    expect(pager.env()).toContain(`BO_API_KEY=${sb.fixtures.apiKey.key}`);
    // The note on stderr comes after the table the pager showed.
    const lines = shown.split('\n');
    const last = lines.map((l) => l.includes('│ acc_')).lastIndexOf(true);
    const note = lines.findIndex((l) => l.startsWith('showing 5 of'));
    expect(note).toBeGreaterThan(last);
    expect(shown).not.toMatch(/EPIPE|error/i);
  });

  it('PAGER is used when BO_PAGER is not set; bo api output goes through it too', async () => {
    const pager = fakePager();
    const name = start('bo api -X GET /crm/accounts -F limit=2', { PAGER: pager.command });
    expect(await waitFor(name, /EXIT=\d+/)).toContain('EXIT=0');
    // JSON for people, as on the terminal itself: indented and coloured (the pager is less -R).
    expect(pager.got()).toMatch(/\x1b\[/);
    expect(JSON.parse(stripVTControlCharacters(pager.got()!)).items).toHaveLength(2);
  });

  it('BO_PAGER=cat or empty prints directly; piped output and batches never start a pager', async () => {
    const pager = fakePager();
    for (const off of ['cat', '']) {
      const name = start('bo accounts list --limit 2', { BO_PAGER: off, PAGER: pager.command });
      const shown = await waitFor(name, /EXIT=\d+/);
      expect(shown).toContain('EXIT=0');
      expect(shown.match(/│ acc_/g)).toHaveLength(2);
    }
    const out = join(work, 'piped.tsv');
    const piped = start(`bo accounts list --limit 2 | cat > ${quote(out)}`, { PAGER: pager.command });
    expect(await waitFor(piped, /EXIT=\d+/)).toContain('EXIT=0');
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    const drips = sb.fixtures.dripCampaigns.slice(0, 2).join('\\n');
    const batch = start(`printf '${drips}\\n' | bo drips delete - --dry-run`, { PAGER: pager.command });
    const batchScreen = await waitFor(batch, /EXIT=\d+/);
    expect(batchScreen).toContain('EXIT=0');
    expect(batchScreen).toContain(`DELETE ${sb.url}/api/v1/email/campaigns/drips/${sb.fixtures.dripCampaigns[0]}`);
    expect(pager.got()).toBeUndefined();
  });

  it('a confirmation is asked on the terminal first; only the answer after it goes through the pager', async () => {
    const pager = fakePager();
    const name = start('bo config set protected true && bo api /email/lists -F Name=Paged-after-yes', { PAGER: pager.command });
    await waitFor(name, /Send POST \/email\/lists on profile "default" .*\?/);
    expect(pager.got()).toBeUndefined();
    tmux('send-keys', '-t', name, 'y');
    tmux('send-keys', '-t', name, 'Enter');
    expect(await waitFor(name, /EXIT=\d+/)).toContain('EXIT=0');
    expect(JSON.parse(stripVTControlCharacters(pager.got()!))).toMatchObject({ Name: 'Paged-after-yes' });
  });

  it('less by default: q ends bo with 0, and a long list stops fetching pages', async () => {
    const before = (await sb.activity()).length;
    const name = start('bo accounts list --all');
    // less shows its prompt at the bottom once the screen is full.
    await lessPrompt(name);
    tmux('send-keys', '-t', name, 'q');
    const shown = await waitFor(name, /TTY-ECHO=\S+/);
    expect(shown).toContain('EXIT=0');
    expect(shown).toContain('TTY-ECHO=echo');
    expect(shown).not.toMatch(/EPIPE|error|warning/i);
    // Less than half of the list's 100 pages were asked for: what the pipes hold, no more.
    const pages = (await sb.activity()).slice(before).filter((a) => a.path.startsWith('/api/v1/crm/accounts'));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.length).toBeLessThan(ACCOUNTS / 100 / 2);
  });

  it('SIGTERM to bo alone ends the pager too: exit 143, the terminal as it was, no prompt left behind', async () => {
    // The subshell's pid is bo's once it execs; the test signals that one process only.
    const name = start('(echo BOPID=$BASHPID; exec node "$BO_JS" accounts list --all)', { BO_JS: join(root, 'bin', 'bo.js') });
    await lessPrompt(name);
    const pid = Number(/BOPID=(\d+)/.exec(screen(name))?.[1]);
    expect(pid).toBeGreaterThan(1);
    process.kill(pid, 'SIGTERM');
    const shown = await waitFor(name, /TTY-ECHO=\S+/);
    expect(shown).toMatch(/^EXIT=143$/m);
    expect(shown).toContain('TTY-ECHO=echo');
    expect(shown).not.toMatch(/^:/m);
  });

  it('Ctrl-C in less ends the pager and bo with 130, the terminal as it was', async () => {
    const name = start('bo api /crm/accounts --paginate');
    await lessPrompt(name);
    tmux('send-keys', '-t', name, 'C-c');
    const shown = await waitFor(name, /TTY-ECHO=\S+/);
    expect(shown).toMatch(/^EXIT=130$/m);
    expect(shown).toContain('TTY-ECHO=echo');
    expect(shown).not.toMatch(/EPIPE/);
  });
});
