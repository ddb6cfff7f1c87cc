// Man pages from the command tree: bo(1) with the global options, environment, exit
// codes, files and examples, and one page per group and verb (bo-accounts-list(1)),
// written by the build into man/ (scripts/man.mjs). Plain roff with the man macros;
// everything outside ASCII is escaped, so `man` renders them in any locale.

import type { Command } from 'commander';
import { docTree, flatten, type DocCommand, type DocItem } from './reference.js';
import { environment, errorCodes, errorCodesIntro, exitCodes, pipeRule } from './topics.js';

/** The pages, by file name (`bo.1`, `bo-accounts-list.1`), in tree order. */
export function manPages(program: Command, version: string): Map<string, string> {
  const root = docTree(program);
  const all = flatten(root).slice(1);
  const pages = new Map<string, string>();
  pages.set('bo.1', rootPage(root, all, version));
  for (const doc of all) pages.set(`${pageName(doc)}.1`, commandPage(doc, root, version));
  return pages;
}

const pageName = (doc: DocCommand) => ['bo', ...doc.path].join('-');

function header(name: string, version: string): string[] {
  return [`.TH "${name.toUpperCase()}" "1" "" "bo ${version}" "bo manual"`, '.nh', '.ad l'];
}

function rootPage(root: DocCommand, all: DocCommand[], version: string): string {
  const lines = [
    ...header('bo', version),
    '.SH NAME',
    `bo \\- ${text(lowerFirst(root.description.replace(/\.$/, '')))}`,
    '.SH SYNOPSIS',
    '.B bo',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    text(root.description),
    '.PP',
    text(
      'Every command takes --sandbox to run against the embedded sandbox, a stateful emulator of the whole API that needs no tenant. ' +
        'stdout carries data only (tables on a terminal, tab-separated rows when piped, --json, --jsonl or --csv); messages, progress and prompts go to stderr. ' +
        'Each command has its own page, named after its words: bo-accounts-list(1) for bo accounts list.',
    ),
    '.SH COMMANDS',
    ...all.flatMap((doc) => ['.TP', `.B ${text(['bo', ...doc.path].join(' '))}`, `${text(sentence(doc.summary))} See \\fB${text(pageName(doc))}\\fR(1).`]),
    '.SH GLOBAL OPTIONS',
    ...itemList(root.options),
    '.SH ENVIRONMENT',
    text('A flag given on the command line wins over its variable.'),
    ...itemList(environment.map((v) => ({ term: v.names.join(', '), description: v.meaning }))),
    '.SH EXIT STATUS',
    ...itemList(exitCodes.map((c) => ({ term: String(c.code), description: `${c.meaning}. Script: ${c.script}.` }))),
    '.PP',
    text(pipeRule),
    '.PP',
    text(errorCodesIntro),
    ...itemList(errorCodes.map((c) => ({ term: c.code, description: `${c.meaning}.` }))),
    '.SH FILES',
    ...itemList([
      { term: '$XDG_CONFIG_HOME/bo/config.json', description: 'profiles and their settings (~/.config/bo when XDG_CONFIG_HOME is not set; BO_CONFIG_DIR replaces the folder). Nothing secret is kept in it.' },
      { term: '$XDG_CONFIG_HOME/bo/credentials.json', description: 'credentials stored with --insecure-storage, mode 0600; otherwise they are kept in the OS keychain.' },
      { term: '$XDG_DATA_HOME/bo/sandbox-state.json', description: 'the embedded sandbox\'s state (~/.local/share/bo when XDG_DATA_HOME is not set; BO_DATA_DIR replaces the folder). bo sandbox reset puts the demo data back.' },
      { term: '$XDG_CACHE_HOME/bo/compile-cache', description: "Node's compile cache for bo's code (~/.cache/bo when XDG_CACHE_HOME is not set); safe to delete." },
    ]),
    '.SH EXAMPLES',
    ...exampleBlock(root.examples),
    '.SH SEE ALSO',
    all.map((doc) => `\\fB${text(pageName(doc))}\\fR(1)`).join(', '),
    '',
  ];
  return lines.join('\n');
}

function commandPage(doc: DocCommand, root: DocCommand, version: string): string {
  const name = pageName(doc);
  const parent = doc.path.length > 1 ? `bo-${doc.path.slice(0, -1).join('-')}` : 'bo';
  const own = doc.options.filter((o) => o.term !== '-h, --help');
  const lines = [
    ...header(name, version),
    '.SH NAME',
    `${text(name)} \\- ${text(lowerFirst(doc.summary))}`,
    '.SH SYNOPSIS',
    synopsis(doc.usage),
    '.SH DESCRIPTION',
    text(doc.description),
  ];
  if (doc.commands.length > 0) {
    lines.push('.SH COMMANDS', ...doc.commands.flatMap((c) => ['.TP', `.B ${text(['bo', ...c.path].join(' '))}`, `${text(sentence(c.summary))} See \\fB${text(pageName(c))}\\fR(1).`]));
  }
  if (doc.args.length > 0) lines.push('.SH ARGUMENTS', ...itemList(doc.args));
  if (own.length > 0) lines.push('.SH OPTIONS', ...itemList(own));
  lines.push('.SH GLOBAL OPTIONS', text('These work with every command; see bo(1) for the environment variables behind them.'), ...itemList(root.options));
  if (doc.examples.length > 0) lines.push('.SH EXAMPLES', ...exampleBlock(doc.examples));
  const see = [parent, ...doc.commands.map(pageName)];
  lines.push('.SH SEE ALSO', see.map((p) => `\\fB${text(p)}\\fR(1)`).join(', '), '');
  return lines.join('\n');
}

function synopsis(usage: string): string {
  const [command, ...rest] = usage.split(/ (?=[[<])/);
  return [`.B ${text(command!)}`, ...(rest.length ? [text(rest.join(' '))] : [])].join('\n');
}

function itemList(items: DocItem[]): string[] {
  return items.flatMap((i) => ['.TP', `.B ${text(i.term)}`, text(i.description || ' ')]);
}

function exampleBlock(examples: string[]): string[] {
  return ['.PP', '.RS 4', '.nf', ...examples.map((e) => text(e)), '.fi', '.RE'];
}

const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s);

/** Characters outside ASCII as glyphs every output device of groff has (ASCII too). */
const GLYPHS: Record<string, string> = {
  '\u2026': '...',
  '\u2014': '\\(em',
  '\u2013': '\\(en',
  '\u2018': '\\(oq',
  '\u2019': '\\(cq',
  '\u201C': '\\(lq',
  '\u201D': '\\(rq',
  '\u00D7': '\\(mu',
  '\u2022': '\\(bu',
  '\u2192': '\\(->',
  '\u00A0': '\\~',
};

/**
 * A line of running text as roff: backslashes and hyphens escaped (a hyphen stays a
 * hyphen when copied), a leading `.` or `'` kept from reading as a request, each line
 * of a multi-line text its own, and everything outside ASCII as a glyph escape
 * (test/e2e/man-pages.test.ts renders every page in the C locale without a warning).
 */
export function text(s: string): string {
  return s
    .split('\n')
    .map((line) => {
      const escaped = line
        .replace(/\\/g, '\\e')
        .replace(/-/g, '\\-')
        .replace(/[^\x20-\x7e]/gu, (ch) =>
          ch === '\t' ? ' ' : (GLYPHS[ch] ?? `\\[u${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`),
        );
      return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
    })
    .join('\n');
}

/**
 * A summary as a sentence, so the "See …" after it reads as the next one: a full stop
 * unless it ends one already (`.`, `!`, `?`, or one of them closed by a parenthesis or a
 * quote). A closing parenthesis alone ends no sentence: "List accounts (GET
 * /crm/accounts)." gets its stop.
 */
function sentence(summary: string): string {
  const trimmed = summary.trim();
  return /[.!?]["')]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
