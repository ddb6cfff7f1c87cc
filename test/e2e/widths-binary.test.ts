// Text a terminal draws two cells wide although it is several code points: a ZWJ family
// (👨‍👩‍👧), a flag (🇯🇵), a skin tone (👍🏽) and an emoji variation (⚠️). The built binary
// on a pseudo-terminal draws a table and a record view holding them, at full width and
// cut to a narrow terminal: every row's borders stand where the rules' corners do. The
// columns are judged here without bo's width function: each of the four is two cells,
// every other character of the screen one (ASCII and box drawing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, runOnTerminal } from '../helpers/run-bin.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { testEnv } from '../helpers/test-env.js';

const FAMILY = '👨\u200d👩\u200d👧';
const FLAG = '🇯🇵';
const THUMB = '👍🏽';
const WARNING = '⚠\ufe0f';
const WIDE = [FAMILY, FLAG, THUMB, WARNING];

let sb: TestSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  sb = await startTestSandbox();
  env = { ...testEnv(sb), BO_PAGER: 'cat' };
  const lists = [
    { Name: `${FAMILY} family list`, Description: `${FLAG} Japan` },
    { Name: `${FLAG} flag list`, Description: 'plain' },
    { Name: `${THUMB} thumbs list`, Description: WARNING },
    { Name: `${WARNING} warning list`, Description: THUMB },
    { Name: `${FAMILY}${FLAG}${THUMB}${WARNING} all four`, Description: 'x' },
  ];
  const created = await runBin(['lists', 'create', '-'], { env, stdin: lists.map((l) => JSON.stringify(l)).join('\n') + '\n' });
  expect(created.code, created.stderr).toBe(0);
  const welcome = await runBin(
    ['lists', 'create', '--name', 'welcome', '--welcome-subject', `${FAMILY} hi ${FLAG} ${THUMB} ${WARNING} end`, '--welcome-body', 'x', '--welcome-from-email', 'team@example.com', '--json'],
    { env },
  );
  expect(welcome.code, welcome.stderr).toBe(0);
  const uid = JSON.parse(welcome.stdout).answer.Uid as string;
  const subscribed = await runBin(['lists', 'subscribe', uid, '--email', 'ada@example.com', '--send-welcome'], { env });
  expect(subscribed.code, subscribed.stderr).toBe(0);
}, 60_000);
afterAll(() => sb.close());

/** The cell (column) at which each of `marks` stands in `line`: the four are two cells, every other character one. */
function columnsOf(line: string, marks: RegExp): number[] {
  const at: number[] = [];
  let column = 0;
  for (const { segment } of new Intl.Segmenter().segment(line)) {
    if (marks.test(segment)) at.push(column);
    column += WIDE.includes(segment) ? 2 : 1;
  }
  return at;
}

/** The lines of a drawn box, and the columns of its borders: each row's must be the top rule's. */
function checkAligned(screen: string): string[] {
  const lines = screen.split('\n').filter((l) => /^[┌├│└]/.test(l));
  expect(lines.length).toBeGreaterThan(3);
  const corners = columnsOf(lines[0]!, /^[┌┬┐]$/);
  for (const line of lines) expect({ line, at: columnsOf(line, /^[┌┬┐├┼┤│└┴┘]$/) }).toEqual({ line, at: corners });
  return lines;
}

/** Whether a cell's text holds a grapheme cut in two: a lone regional indicator or skin tone, or a joiner at its end. */
const cutGrapheme = (text: string) => [...new Intl.Segmenter().segment(text)].some(({ segment }) => /^[\u{1f1e6}-\u{1f1ff}]$|^[\u{1f3fb}-\u{1f3ff}]$|\u200d$/u.test(segment));

describe('wide graphemes on a terminal (built binary)', () => {
  it('a table of names holding them: every border where the rules put it', async () => {
    const r = await runOnTerminal(['lists', 'list', '--no-color', '--fields', 'Name,Description'], env, { columns: 200 });
    expect(r.code, r.out).toBe(0);
    const lines = checkAligned(r.out);
    for (const wide of WIDE) expect(lines.some((l) => l.includes(wide))).toBe(true);
  });

  it('cut to a narrow terminal: still aligned, cut with an ellipsis, never inside a grapheme', async () => {
    const r = await runOnTerminal(['lists', 'list', '--no-color', '--fields', 'Name,Description'], env, { columns: 64 });
    expect(r.code, r.out).toBe(0);
    const lines = checkAligned(r.out);
    expect(columnsOf(lines[0]!, /^┐$/)[0]).toBeLessThan(64);
    const cut = lines.filter((l) => l.includes('…'));
    expect(cut.length).toBeGreaterThan(0);
    for (const line of cut) expect(cutGrapheme(line), line).toBe(false);
  });

  it('the record view: aligned, whole and cut', async () => {
    for (const columns of [120, 30]) {
      const r = await runOnTerminal(['sandbox', 'outbox', '--last', '--no-color', '--base-url', sb.url], env, { columns });
      expect(r.code, r.out).toBe(0);
      const lines = checkAligned(r.out);
      const subject = lines.find((l) => l.includes('subject'))!;
      expect(subject).toContain(FAMILY);
      if (columns === 120) expect(subject).toContain(`${WARNING} end`);
      else expect(cutGrapheme(subject), subject).toBe(false);
    }
  });
});
