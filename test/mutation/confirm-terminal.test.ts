// A declined confirmation on a real terminal prompt (the in-process prompter, keys typed
// one by one): the question names the account, answering no leaves one plain line, no
// "✔ … No" echo and no "error: not confirmed", exit 2, and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/main.js';
import { terminal, visible } from '../helpers/terminal.js';

/**
 * What a terminal shows after `written`: the cursor moves and erasures the prompt uses
 * (up, down, column, erase line) applied, other sequences dropped.
 */
function shown(written: string): string {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  const put = (ch: string) => {
    const line = (lines[row] ?? '').padEnd(col, ' ');
    lines[row] = line.slice(0, col) + ch + line.slice(col + 1);
    col++;
  };
  for (let i = 0; i < written.length; i++) {
    const c = written[i]!;
    if (c === '\u001b') {
      const m = /^\u001b\[([0-9;?]*)([A-Za-z])/.exec(written.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1] || '1');
      if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'B') row += n;
      else if (m[2] === 'G') col = n - 1;
      else if (m[2] === 'K') lines[row] = '';
      while (lines.length <= row) lines.push('');
    } else if (c === '\n') {
      row++;
      col = 0;
      while (lines.length <= row) lines.push('');
    } else if (c === '\r') col = 0;
    else put(c);
  }
  return lines.filter((l) => l.trim() !== '').join('\n') + '\n';
}
import { testEnv } from '../helpers/test-env.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe('a confirmation declined at the terminal prompt', () => {
  it('shows what the account is, then one plain line; exit 2; nothing sent but the one read', async () => {
    const uid = sb.fixtures.trialAccounts[0]!;
    const { Name: name } = await sb.record('Account', uid);
    const t = terminal();
    t.io.env = { ...testEnv(sb), LANG: 'C.UTF-8', NO_COLOR: '1' };
    // As process.stderr: a prompt piped into it never ends it (stream.pipe spares stdio).
    (t.io.stderr as { end: unknown }).end = () => t.io.stderr;
    const before = (await sb.activity()).length;
    const done = run(['accounts', 'cancel', uid, '--reason', 'x'], { io: t.io });
    const asked = visible(await t.waitFor((s) => visible(s).includes('(y/N)')));
    expect(asked).toContain(`Cancel account ${uid} (${name}, 2 `);
    await t.type('n', '\r');
    const code = await done;
    expect(code).toBe(2);
    const screen = shown(t.stderr());
    expect(screen.trimEnd().split('\n').at(-1)).toBe('Nothing was changed.');
    expect(screen).not.toContain('✔');
    expect(screen).not.toContain('error:');
    expect(t.stdout()).toBe('');
    expect((await sb.activity()).slice(before).map((a: { method: string }) => a.method)).toEqual(['GET']);
    expect((await sb.record('Account', uid)).AccountStage).toBe(2);
  });
});
