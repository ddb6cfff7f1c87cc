// bo's own JSON reader, for the texts JSON.parse may misread on this runtime (json-parse.ts
// chooses). It reads all of JSON (RFC 8259) to the value JSON.parse gives: the same
// strings (lone surrogates kept), numbers (Number() of the same digits), key order and
// last-wins duplicates, `__proto__` an own data property, and any depth, as JSON.parse
// (it keeps a stack of its own, not the call stack); callers check depth as they do
// after JSON.parse. What JSON.parse refuses, it refuses with a SyntaxError.

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

type Container = unknown[] | Record<string, unknown>;

/** The value of a JSON text, as JSON.parse reads it on a runtime without its bugs. */
export function readJson(text: string): unknown {
  const n = text.length;
  let i = 0;

  const fail = (): never => {
    throw new SyntaxError(i < n ? `Unexpected character in JSON at position ${i}` : 'Unexpected end of JSON input');
  };
  const space = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return;
    }
  };
  /**
   * The string whose opening quote is at i. Its end found with indexOf, its text decoded
   * by JSON.parse (what the bug misreads is keys only, never a string value; JSON.parse
   * also refuses a raw control character or a bad escape in it).
   */
  const string = (): string => {
    const from = i;
    let end = i;
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end < 0) {
        i = n;
        return fail();
      }
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
    }
    i = end + 1;
    return JSON.parse(text.slice(from, i)) as string;
  };
  const digits = (): void => {
    const from = i;
    while (i < n && text.charCodeAt(i) >= ZERO && text.charCodeAt(i) <= NINE) i++;
    if (i === from) fail();
  };
  const number = (): number => {
    const from = i;
    if (text.charCodeAt(i) === MINUS) i++;
    if (text.charCodeAt(i) === ZERO) i++;
    else digits();
    if (text.charCodeAt(i) === DOT) {
      i++;
      digits();
    }
    if ((text.charCodeAt(i) | 0x20) === 0x65) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === MINUS) i++;
      digits();
    }
    return Number(text.slice(from, i));
  };
  const word = <T>(w: string, value: T): T => {
    if (!text.startsWith(w, i)) fail();
    i += w.length;
    return value;
  };
  /** An object's key at i, its colon and the space after it. */
  const key = (): string => {
    if (text.charCodeAt(i) !== QUOTE) fail();
    const k = string();
    space();
    if (text.charCodeAt(i) !== COLON) fail();
    i++;
    space();
    return k;
  };

  const open: Container[] = [];
  const keys: string[] = [];
  space();
  for (;;) {
    // A value starts at i.
    let value: unknown;
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      space();
      if (text.charCodeAt(i) === c + 2) {
        i++;
        value = c === 0x7b ? {} : [];
      } else {
        open.push(c === 0x7b ? {} : []);
        keys.push(c === 0x7b ? key() : '');
        continue;
      }
    } else if (c === QUOTE) value = string();
    else if (c === MINUS || (c >= ZERO && c <= NINE)) value = number();
    else if (c === 0x74) value = word('true', true);
    else if (c === 0x66) value = word('false', false);
    else if (c === 0x6e) value = word('null', null);
    else return fail();
    // The value is whole: into the container open, closing those that end here.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) {
        space();
        if (i !== n) fail();
        return value;
      }
      const isArray = Array.isArray(top);
      if (isArray) top.push(value);
      else put(top, keys[keys.length - 1]!, value);
      space();
      const d = text.charCodeAt(i);
      if (d === COMMA) {
        i++;
        space();
        if (!isArray) keys[keys.length - 1] = key();
        break;
      }
      if (d !== (isArray ? 0x5d : 0x7d)) fail();
      i++;
      value = open.pop();
      keys.pop();
    }
  }
}

/** As JSON.parse sets a key (CreateDataProperty): `__proto__` too is an own data property. */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
