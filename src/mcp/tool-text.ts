// A description written for the command line (a verb's summary, an option's or an
// argument's help) in the words of a tool, the one place `bo mcp` renders them: an agent
// calls tools with named arguments, never reads stdin, and gets error codes, not exit
// codes. So `bo accounts get <accountUid> --fields Deals.Uid` becomes
// `accounts_get(accountUid, fields: Deals.Uid)`, `--to` becomes `to`, `exit 3` a
// `not_found` error, and what is said of `-` (stdin) or of the terminal's question goes.

import { ExitCode } from '../errors.js';

/** The error code a tool answers with for the exit code a command line gives (errors.ts errorCode). */
const CODE_OF_EXIT: Record<string, string> = {
  [ExitCode.usage]: 'usage',
  [ExitCode.notFound]: 'not_found',
  [ExitCode.auth]: 'auth',
  [ExitCode.rateLimited]: 'rate_limited',
};

/** `--page-size` → `pageSize`, as commander names an option's attribute (a tool's argument). */
const argumentName = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** accounts list → accounts_list (tools.ts toolName). */
const toolOf = (words: string) => words.trim().split(/\s+/).join('_').replaceAll('-', '_');

/** `bo <words> [<operand>…] [--flag value…]` as a tool call: `words_joined(operand, flag: value)`. */
function commandAsCall(text: string): string {
  return text.replace(/\bbo((?: [a-z][a-z-]*)+)((?: (?:<[A-Za-z]+>|--[a-z][a-z-]*(?: (?!--)[^\s;)]+)?))*)/g, (_, words: string, rest: string) => {
    const args: string[] = [];
    for (const m of rest.matchAll(/<([A-Za-z]+)>|(--[a-z][a-z-]*)(?: ([^\s;)]+))?/g)) {
      if (m[1]) args.push(m[1]);
      else {
        const value = m[3]?.replace(/[,.]+$/, '');
        args.push(value ? `${argumentName(m[2]!)}: ${value}` : argumentName(m[2]!));
      }
    }
    const trailing = /[,.]+$/.exec(rest.trimEnd())?.[0] ?? '';
    return `${toolOf(words)}(${args.join(', ')})${trailing}`;
  });
}

/** A parenthesis's parts that speak of stdin or of the terminal's question dropped; the parenthesis with them when none is left. */
function dropCommandLineParts(text: string): string {
  return text.replace(/ ?\(([^()]*)\)/g, (whole: string, inside: string) => {
    const parts = inside.split('; ').filter((part) => !/stdin|\basks first\b|\brequired without -/.test(part));
    if (parts.length === inside.split('; ').length) return whole;
    return parts.length ? ` (${parts.join('; ')})` : '';
  });
}

/** A command line's description in a tool's words. */
export function toolText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let out = dropCommandLineParts(text)
    .replace(/,? or - (?:for|reads|to read) (?:from )?stdin\b/g, '')
    .replace(/\bexit (\d+)/g, (whole, code: string) => (CODE_OF_EXIT[code] ? `a ${CODE_OF_EXIT[code]} error` : whole));
  out = commandAsCall(out);
  // A flag named alone is the tool's argument of that name.
  out = out.replace(/(^|[\s(:,])(--[a-z][a-z-]*)/g, (_, before: string, flag: string) => `${before}${argumentName(flag)}`);
  return out.replace(/^[\s-]+/, '').replace(/\s{2,}/g, ' ').trim();
}
