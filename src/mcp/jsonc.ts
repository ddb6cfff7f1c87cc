// JSON with comments and trailing commas (VS Code's and Cursor's configuration files), read
// with the offsets of every value, so `bo mcp install` can change one member of one object
// and leave every other byte of the file as it was: its comments, its spacing, its order.
// Strict JSON files (Claude Desktop's, Claude Code's) are read by the same reader.

export type JsoncNode =
  | { kind: 'object'; start: number; end: number; members: JsoncMember[] }
  | { kind: 'array'; start: number; end: number; items: JsoncNode[] }
  | { kind: 'value'; start: number; end: number; value: string | number | boolean | null };

export interface JsoncMember {
  key: string;
  /** Where the member starts (its key's opening quote). */
  start: number;
  value: JsoncNode;
}

/** A file this reader cannot read: where, and why. */
export class JsoncError extends Error {
  constructor(
    readonly offset: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/** The text read as one JSONC value (comments and trailing commas allowed); a JsoncError otherwise. */
export function parseJsonc(text: string): JsoncNode {
  let at = 0;
  const fail = (why: string): never => {
    throw new JsoncError(at, why);
  };
  const space = () => {
    for (;;) {
      while (at < text.length && /[\s\uFEFF]/.test(text[at]!)) at++;
      if (text.startsWith('//', at)) {
        const end = text.indexOf('\n', at);
        at = end === -1 ? text.length : end + 1;
      } else if (text.startsWith('/*', at)) {
        const end = text.indexOf('*/', at + 2);
        if (end === -1) fail('a comment that never ends');
        at = end + 2;
      } else return;
    }
  };
  const string = (): string => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20) fail('a control character in a string');
      at++;
    }
    if (at >= text.length) fail('a string that never ends');
    at++;
    try {
      return JSON.parse(text.slice(start, at)) as string;
    } catch {
      return fail('a string with a bad escape');
    }
  };
  let depth = 0;
  const value = (): JsoncNode => {
    space();
    const start = at;
    const c = text[at];
    if (c === '{' || c === '[') {
      if (++depth > 100) fail('nested too deep');
      at++;
      const members: JsoncMember[] = [];
      const items: JsoncNode[] = [];
      const close = c === '{' ? '}' : ']';
      for (;;) {
        space();
        if (text[at] === close) break;
        if (c === '{') {
          if (text[at] !== '"') fail('an object member without a quoted key');
          const memberStart = at;
          const key = string();
          space();
          if (text[at] !== ':') fail('a key without a colon');
          at++;
          members.push({ key, start: memberStart, value: value() });
        } else items.push(value());
        space();
        if (text[at] === ',') at++;
        else if (text[at] !== close) fail(`a missing comma or ${close}`);
      }
      at++;
      depth--;
      return c === '{' ? { kind: 'object', start, end: at, members } : { kind: 'array', start, end: at, items };
    }
    if (c === '"') {
      const text = string();
      return { kind: 'value', start, end: at, value: text };
    }
    const word = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!word) return fail(at >= text.length ? 'the end of the file where a value was due' : 'an unexpected character');
    at += word[0].length;
    return { kind: 'value', start, end: at, value: JSON.parse(word[0]) as string | number | boolean | null };
  };
  const root = value();
  space();
  if (at < text.length) fail('more after the value');
  return root;
}

/** The node as a plain value. */
export function valueOf(node: JsoncNode): unknown {
  if (node.kind === 'object') return Object.fromEntries(node.members.map((m) => [m.key, valueOf(m.value)]));
  if (node.kind === 'array') return node.items.map(valueOf);
  return node.value;
}

/** The member `key` of an object node (the last, as JSON.parse keeps the last). */
export function memberOf(node: JsoncNode | undefined, key: string): JsoncMember | undefined {
  return node?.kind === 'object' ? [...node.members].reverse().find((m) => m.key === key) : undefined;
}

/** The whitespace a line starts with, for the line `offset` is on. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `json` (several lines) indented to sit at `indent`: its first line is where it is placed. */
function indented(json: string, indent: string): string {
  return json.split('\n').map((line, i) => (i === 0 ? line : `${indent}${line}`)).join('\n');
}

/** A JSON text of `value`, lists of strings on one line, as the client forms write it. */
export type Render = (value: unknown) => string;

/**
 * `text` with `path` (keys from the root object) set to `value`, every other byte kept: an
 * existing value is replaced where it is; a missing member is added at the end of its
 * object, indented as the object's other members are (or one step in from the object).
 */
export function setMember(text: string, root: JsoncNode, path: readonly string[], value: unknown, render: Render): string {
  if (root.kind !== 'object') throw new JsoncError(root.start, 'the file does not hold an object');
  let node: JsoncNode = root;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const member = memberOf(node, key);
    const rest = path.slice(i + 1);
    const wanted = rest.reduceRight<unknown>((inner, k) => ({ [k]: inner }), value);
    if (member) {
      if (rest.length === 0 || member.value.kind !== 'object') {
        const indent = indentAt(text, member.start);
        return text.slice(0, member.value.start) + indented(render(wanted), indent) + text.slice(member.value.end);
      }
      node = member.value;
      continue;
    }
    return addMember(text, node as Extract<JsoncNode, { kind: 'object' }>, key, wanted, render);
  }
  return text;
}

function addMember(text: string, object: Extract<JsoncNode, { kind: 'object' }>, key: string, value: unknown, render: Render): string {
  const last = object.members.at(-1);
  const objectIndent = indentAt(text, object.start);
  if (!last) {
    const inner = `${objectIndent}  `;
    const member = `${JSON.stringify(key)}: ${indented(render(value), inner)}`;
    return `${text.slice(0, object.start)}{\n${inner}${member}\n${objectIndent}}${text.slice(object.end)}`;
  }
  const indent = indentAt(text, last.start);
  const member = `${JSON.stringify(key)}: ${indented(render(value), indent)}`;
  // After the last member's value: a comma is added unless one (a trailing comma) is there already.
  let after = last.value.end;
  const between = text.slice(after, object.end - 1);
  const comma = /^\s*(?:(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*,/.exec(between);
  if (comma) after += comma[0].length;
  const sameLine = text.lastIndexOf('\n', last.start) < object.start;
  const gap = sameLine ? ' ' : `\n${indent}`;
  // A comment ending the last member's line stays on that line: the new member goes after it.
  const lineEnd = sameLine ? undefined : /^[ \t]*(?:\/\/[^\n]*|\/\*[^\n]*?\*\/[ \t]*)?(?=\r?\n)/.exec(text.slice(after));
  const at = after + (lineEnd?.[0].length ?? 0);
  const commaAt = comma ? after : last.value.end;
  return `${text.slice(0, commaAt)}${comma ? '' : ','}${text.slice(commaAt, at)}${gap}${member}${text.slice(at)}`;
}
