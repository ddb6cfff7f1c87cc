// `bo --help` without loading commander or the command tree: bin/bo.js prints the top
// help from data captured from the tree at build time (top-help-capture.ts,
// scripts/top-help.mjs), wrapped here to the terminal the way commander wraps it.
// No imports: this file is loaded alone on the fast path.

export interface TopHelp {
  version: string;
  usage: string;
  description: string;
  /** Width of the widest term, as commander pads them. */
  termWidth: number;
  sections: Array<{ title: string; items: Array<[term: string, description: string]> }>;
  /** The help text added after the generated part (examples, exit codes), unwrapped. */
  after: string;
}

/** program.ts's helpConfiguration.minWidthToWrap (the test of this file compares the two outputs). */
const MIN_WIDTH_TO_WRAP = 16;

/** Commander's Help.boxWrap: greedy word wrap, nothing wrapped below 16 columns. */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const out: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      out.push('');
      continue;
    }
    let current = chunks.shift()!;
    for (const chunk of chunks) {
      if (current.length + chunk.length <= width) {
        current += chunk;
        continue;
      }
      out.push(current);
      current = chunk.trimStart();
    }
    out.push(current);
  }
  return out.join('\n');
}

function formatItem(term: string, description: string, termWidth: number, width: number): string {
  if (!description) return `  ${term}`;
  const remaining = width - termWidth - 4;
  // Commander leaves a description with its own indented lines as it is.
  const preformatted = /\n[^\S\r\n]/.test(description);
  const text =
    remaining < MIN_WIDTH_TO_WRAP || preformatted
      ? description
      : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${text.replace(/\n/g, '\n  ')}`;
}

/** The top help as commander prints it for a terminal `width` columns wide. */
export function renderTopHelp(help: TopHelp, width: number): string {
  const lines = [help.usage, ''];
  if (help.description) lines.push(boxWrap(help.description, width), '');
  for (const section of help.sections) {
    if (section.items.length === 0) continue;
    lines.push(section.title, ...section.items.map(([t, d]) => formatItem(t, d, help.termWidth, width)), '');
  }
  return lines.join('\n') + help.after;
}
