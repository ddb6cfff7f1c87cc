// No module-level WeakMap or WeakSet in src/: one keyed by commander's objects (or any
// other) is a hidden mark, state kept beside the data instead of in it. Today's are
// listed below; the list may only shrink. Read from the source: each file with its
// comments, strings and regular expressions blanked, then every mention of WeakMap or
// WeakSet outside any brace (a `const`, `let` or `export` of the module) is one.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** Today's, by file and name: remove an entry with the map it names, never add one. */
const ALLOWED: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The code with comments, string and template text and regular expressions replaced by
 * spaces (a template's `${…}` stays code), so that braces count and words are code.
 */
function codeOnly(text: string): string {
  let out = '';
  let i = 0;
  /** For each open `${` of a template: the brace depth inside it. */
  const templates: number[] = [];
  let last = ''; // the last code character that is not a space, to tell a regex from a division
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += ` ${blank(text.slice(i + 1, j))} `;
      i = j + 1;
      last = 'a';
    } else if (c === '`' || (c === '}' && templates.at(-1) === 0)) {
      // Template text, from its start or the end of a `${…}`, to its end or the next `${`.
      if (c === '}') templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      out += ` ${blank(text.slice(i + 1, j))}`;
      if (text[j] === '$') {
        templates.push(0);
        out += '  ';
        i = j + 2;
      } else {
        out += ' ';
        i = j + 1;
      }
      last = 'a';
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last) || /\b(return|typeof|case|of|in)$/.test(out.trimEnd()))) {
      // A regular expression: to its closing slash outside a class, then its flags.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j += 1;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j += 1;
      }
      j += 1;
      while (j < text.length && /[a-z]/.test(text[j]!)) j += 1;
      out += blank(text.slice(i, j));
      i = j;
      last = 'a';
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1]! += 1;
      if (templates.length > 0 && c === '}') templates[templates.length - 1]! -= 1;
      out += c;
      if (!/\s/.test(c)) last = c;
      i += 1;
    }
  }
  return out;
}

/** The module-level mentions of WeakMap or WeakSet in `code`, as the name declared on their line; and the brace depth at the end. */
function moduleLevelWeak(code: string): { names: string[]; depth: number } {
  const names: string[] = [];
  let depth = 0;
  for (const line of code.split('\n')) {
    for (const match of line.matchAll(/[{}]|\bWeak(?:Map|Set)\b/g)) {
      if (match[0] === '{') depth += 1;
      else if (match[0] === '}') depth -= 1;
      else if (depth === 0) names.push(/(?:const|let|var)\s+(\w+)/.exec(line)?.[1] ?? `line ${line.trim()}`);
    }
  }
  return { names, depth };
}

const scanned = sourceFiles('src').map((file) => ({ file, ...moduleLevelWeak(codeOnly(readFileSync(join(repo, file), 'utf8'))) }));
const found = scanned.flatMap(({ file, names }) => [...new Set(names)].map((name) => `${file} ${name}`));

describe('module-level state in src/', () => {
  it('reads every file of src/ to its end: its braces balance once comments, strings and regular expressions are blanked', () => {
    expect(scanned.length).toBeGreaterThan(100);
    expect(scanned.filter(({ depth }) => depth !== 0).map(({ file }) => file)).toEqual([]);
  });

  it('has no WeakMap or WeakSet at module level but the ones allowed (the list only shrinks)', () => {
    expect(found.filter((entry) => !ALLOWED.includes(entry))).toEqual([]);
  });

  it('lists no allowed one that is gone: an entry leaves the list with its map', () => {
    expect(ALLOWED.filter((entry) => !found.includes(entry))).toEqual([]);
  });

  it('reads a module-level one however it is written, and not a local one', () => {
    const scan = (text: string) => moduleLevelWeak(codeOnly(text)).names;
    expect(scan('const a = new WeakMap<object, number>();')).toEqual(['a']);
    expect(scan('export let marks: WeakSet<object> | undefined;')).toEqual(['marks']);
    expect(scan('function f() {\n  const local = new WeakMap();\n  return local;\n}')).toEqual([]);
    expect(scan("// const a = new WeakMap();\nconst s = 'new WeakMap()';\nconst t = `${'{'} WeakSet`;\nconst r = /{/;")).toEqual([]);
  });
});
