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

/** The tokens of one JSON text, read from `i` on (readJson keeps the structure). */
class Scanner {
  i = 0;
  readonly n: number;

  constructor(readonly text: string) {
    this.n = text.length;
  }

  fail(): never {
    throw new SyntaxError(this.i < this.n ? `Unexpected character in JSON at position ${this.i}` : 'Unexpected end of JSON input');
  }

  at(): number {
    return this.text.charCodeAt(this.i);
  }

  space(): void {
    const { text, n } = this;
    for (; this.i < n; this.i++) {
      const c = text.charCodeAt(this.i);
      if (c !== SPACE && c !== LF && c !== CR && c !== TAB) return;
    }
  }

  /**
   * The string whose opening quote is at i. Its end found with indexOf, its text decoded
   * by JSON.parse (what the bug misreads is keys only, never a string value; JSON.parse
   * also refuses a raw control character or a bad escape in it).
   */
  string(): string {
    const { text } = this;
    const from = this.i;
    let end = this.i;
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end < 0) {
        this.i = this.n;
        return this.fail();
      }
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
    }
    this.i = end + 1;
    return JSON.parse(text.slice(from, this.i)) as string;
  }

  digits(): void {
    const from = this.i;
    while (this.i < this.n && this.at() >= ZERO && this.at() <= NINE) this.i++;
    if (this.i === from) this.fail();
  }

  number(): number {
    const from = this.i;
    if (this.at() === MINUS) this.i++;
    if (this.at() === ZERO) this.i++;
    else this.digits();
    if (this.at() === DOT) {
      this.i++;
      this.digits();
    }
    if ((this.at() | 0x20) === 0x65) {
      this.i++;
      const sign = this.at();
      if (sign === 0x2b || sign === MINUS) this.i++;
      this.digits();
    }
    return Number(this.text.slice(from, this.i));
  }

  word<T>(w: string, value: T): T {
    if (!this.text.startsWith(w, this.i)) this.fail();
    this.i += w.length;
    return value;
  }

  /** An object's key at i, its colon and the space after it. */
  key(): string {
    if (this.at() !== QUOTE) this.fail();
    const k = this.string();
    this.space();
    if (this.at() !== COLON) this.fail();
    this.i++;
    this.space();
    return k;
  }

  /** A value that holds nothing (a string, number, true, false, null) at i. */
  scalar(c: number): unknown {
    if (c === QUOTE) return this.string();
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number();
    if (c === 0x74) return this.word('true', true);
    if (c === 0x66) return this.word('false', false);
    if (c === 0x6e) return this.word('null', null);
    return this.fail();
  }
}

/** The value of a JSON text, as JSON.parse reads it on a runtime without its bugs. */
export function readJson(text: string): unknown {
  const s = new Scanner(text);
  const open: Container[] = [];
  const keys: string[] = [];
  s.space();
  for (;;) {
    // A value starts at i.
    let value: unknown;
    const c = s.at();
    if (c === 0x7b || c === 0x5b) {
      s.i++;
      s.space();
      if (s.at() === c + 2) {
        s.i++;
        value = c === 0x7b ? {} : [];
      } else {
        open.push(c === 0x7b ? {} : []);
        keys.push(c === 0x7b ? s.key() : '');
        continue;
      }
    } else value = s.scalar(c);
    // The value is whole: into the container open, closing those that end here.
    for (;;) {
      const top = open[open.length - 1];
      if (top === undefined) {
        s.space();
        if (s.i !== s.n) s.fail();
        return value;
      }
      const isArray = Array.isArray(top);
      if (isArray) top.push(value);
      else put(top, keys[keys.length - 1]!, value);
      s.space();
      const d = s.at();
      if (d === COMMA) {
        s.i++;
        s.space();
        if (!isArray) keys[keys.length - 1] = s.key();
        break;
      }
      if (d !== (isArray ? 0x5d : 0x7d)) s.fail();
      s.i++;
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
