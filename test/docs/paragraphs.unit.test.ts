// Every paragraph and list item of docs/*.md ends as a sentence ends: `.`, `!` or `?`
// (before a closing bracket, quote or emphasis), or a colon when a list, a table, a
// code block or a labelled paragraph (`**Label**: …`) follows. So a sentence cut off mid-way ("…or a date-time with a") fails.
// Allowed besides: a list item that is not its list's last may end with `;` or `,` (the
// items of one sentence), and a paragraph whose sentence goes on after a code block
// (the text after it starts with a small letter).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));

type Block = { kind: 'code'; line: number } | { kind: 'text'; line: number; lines: string[] };

const LIST_ITEM = /^\s*(?:[-*+]|\d+\.)\s/;
const SENTENCE_END = /[.!?][)\]"'*_`]*$/;
const COLON_END = /:[)\]"'*_`]*$/;

/** The blocks of a page: code blocks, and runs of text lines split at blank lines and headings; HTML comments left out. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  let lines: string[] = [];
  let start = 0;
  let fence = false;
  const flush = () => {
    if (lines.length > 0) out.push({ kind: 'text', line: start + 1, lines });
    lines = [];
  };
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      if (!fence) (flush(), out.push({ kind: 'code', line: i + 1 }));
      fence = !fence;
      return;
    }
    if (fence || /^\s*<!--.*-->\s*$/.test(line)) return;
    if (line.trim() === '' || /^#{1,6} /.test(line)) return flush();
    if (lines.length === 0) start = i;
    lines.push(line);
  });
  flush();
  return out;
}

/** Where a page's paragraphs and list items end unfinished: `file:line: …the end`. */
export function unfinished(file: string, text: string): string[] {
  const all = blocks(text);
  const found: string[] = [];
  all.forEach((block, b) => {
    if (block.kind === 'code') return;
    if (/^\s*(\||<|>|\[[^\]]+\]:)/.test(block.lines[0]!)) return; // tables, HTML, quotes, link definitions
    const next = all[b + 1];
    // A list, a table, or a run of labelled paragraphs (`**Claude Desktop**: …`).
    const startsList = (blk: Block | undefined) => blk?.kind === 'text' && (LIST_ITEM.test(blk.lines[0]!) || /^\s*\|/.test(blk.lines[0]!) || /^\*\*[^*]+\*\*:/.test(blk.lines[0]!));
    const before = next?.kind === 'code' || startsList(next) ? 'list or code' : 'text';
    // A paragraph, or a list split into its items (a line of an item's own nested list starts a new one).
    const items: { line: number; lines: string[] }[] = [];
    block.lines.forEach((line, i) => {
      if (LIST_ITEM.test(line) || items.length === 0) items.push({ line: block.line + i, lines: [line] });
      else items.at(-1)!.lines.push(line);
    });
    items.forEach((item, i) => {
      const end = item.lines.at(-1)!.trim();
      const last = i === items.length - 1;
      const followedBy = last ? before : LIST_ITEM.test(items[i + 1]!.lines[0]!) && /^\s/.test(items[i + 1]!.lines[0]!) && !/^\s/.test(item.lines[0]!) ? 'list or code' : 'item';
      if (SENTENCE_END.test(end)) return;
      if (COLON_END.test(end) && followedBy === 'list or code') return;
      if (!last && LIST_ITEM.test(item.lines[0]!) && /[;,][)\]"'*_`]*$/.test(end)) return;
      const after = all[b + 2];
      if (last && next?.kind === 'code' && after?.kind === 'text' && /^[a-z]/.test(after.lines[0]!)) return;
      found.push(`${file}:${item.line}: …${end.slice(-60)}`);
    });
  });
  return found;
}

const pages = readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

describe('the paragraphs of docs/*.md', () => {
  it('tells a cut sentence from a finished one', () => {
    const page = [
      '# Title', '', 'A sentence.', '', 'Shows a list:', '', '- one;', '- two,', '- three.', '',
      'Then a block:', '', '```sh', 'bo', '```', '', 'reads as', '', '```json', '{}', '```', '',
      'and goes on here (as it should).', '', '**A bold lead-in:**', '', '| a | b |', '', '<!-- a note -->',
      'Or a date-time with a', '', '- an item that stops', '- and one more.', '', '- the last one stops', '',
    ].join('\n');
    expect(unfinished('x.md', page)).toEqual(['x.md:30: …Or a date-time with a', 'x.md:32: …- an item that stops', 'x.md:35: …- the last one stops']);
  });

  it('end every paragraph and list item as a sentence ends', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.flatMap((file) => unfinished(file, readFileSync(join(repo, file), 'utf8')))).toEqual([]);
  });
});
