// The D-Bus wire format, as much as src/auth/stores/dbus.ts needs: marshalling of the
// basic and container types (little-endian out, either byte order in), method calls,
// and the framing of incoming messages. Spec:
// https://dbus.freedesktop.org/doc/dbus-specification.html (marshalling, message format).

/** A marshalled value: strings (s, o, g), numbers (y, u, i, b as 0/1), byte arrays (ay), arrays, structs. */
export type DbusValue = string | number | boolean | Uint8Array | DbusValue[] | { variant: string; value: DbusValue };

/** Something other than a method return: the bus or the service answered an error, or the stream was not D-Bus. */
export class DbusError extends Error {
  constructor(
    message: string,
    /** The D-Bus error name (org.freedesktop.DBus.Error.ServiceUnknown …), when the peer sent one. */
    readonly errorName?: string,
  ) {
    super(message);
  }
}

const METHOD_CALL = 1;
export const METHOD_RETURN = 2;
export const ERROR = 3;
// Header field codes.
const PATH = 1;
const INTERFACE = 2;
const MEMBER = 3;
const ERROR_NAME = 4;
const REPLY_SERIAL = 5;
const DESTINATION = 6;
const SIGNATURE = 8;
/** Larger answers are not what a secret lookup gets: refuse rather than buffer them. */
const MAX_MESSAGE = 1 << 20;
/** Containers (arrays, structs, variants) nested deeper are refused, as the specification's limit of 64. */
const MAX_DEPTH = 64;

class Writer {
  private buf = Buffer.alloc(256);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  align(n: number): void {
    const pad = (n - (this.length % n)) % n;
    this.room(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  byte(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }
  u32(v: number): void {
    this.align(4);
    this.room(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }
  setU32(at: number, v: number): void {
    this.buf.writeUInt32LE(v, at);
  }
  string(v: string): void {
    const bytes = Buffer.from(v, 'utf8');
    this.u32(bytes.length);
    this.raw(bytes);
    this.byte(0);
  }
  signature(v: string): void {
    this.byte(v.length);
    this.raw(Buffer.from(v, 'ascii'));
    this.byte(0);
  }
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** Splits a signature into its complete types: "a{ss}o" → ["a{ss}", "o"]. */
function splitTypes(sig: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < sig.length) {
    const end = typeEnd(sig, i);
    out.push(sig.slice(i, end));
    i = end;
  }
  return out;
}

function typeEnd(sig: string, i: number): number {
  const c = sig[i];
  if (c === 'a') return typeEnd(sig, i + 1);
  if (c === '(' || c === '{') {
    const close = c === '(' ? ')' : '}';
    let j = i + 1;
    let fields = 0;
    while (sig[j] !== close) {
      if (j >= sig.length) throw new DbusError(`bad signature ${sig}`);
      j = typeEnd(sig, j);
      fields++;
    }
    // No empty structs; a dict entry is a key and a value.
    if (fields === 0 || (c === '{' && fields !== 2)) throw new DbusError(`bad signature ${sig}`);
    return j + 1;
  }
  if (!c || !'ybnqiuxtdsogvh'.includes(c)) throw new DbusError(`bad signature ${sig}`);
  return i + 1;
}

function alignOf(type: string): number {
  switch (type[0]) {
    case 'y': case 'g': case 'v': return 1;
    case 'n': case 'q': return 2;
    case 'x': case 't': case 'd': case '(': case '{': return 8;
    default: return 4; // b i u h s o a
  }
}

function write(w: Writer, type: string, value: DbusValue): void {
  switch (type[0]) {
    case 'y':
      return w.byte(value as number);
    case 'b':
      return w.u32(value ? 1 : 0);
    case 'u':
      return w.u32(value as number);
    case 's':
    case 'o':
      return w.string(value as string);
    case 'g':
      return w.signature(value as string);
    case 'v': {
      const { variant, value: inner } = value as { variant: string; value: DbusValue };
      w.signature(variant);
      return write(w, variant, inner);
    }
    case 'a': {
      const elem = type.slice(1);
      w.u32(0);
      const lengthAt = w.length - 4;
      w.align(alignOf(elem));
      const start = w.length;
      const items = elem === 'y' ? [...(value as Uint8Array)] : (value as DbusValue[]);
      for (const item of items) write(w, elem, item);
      w.setU32(lengthAt, w.length - start);
      return;
    }
    case '(':
    case '{': {
      w.align(8);
      const fields = splitTypes(type.slice(1, -1));
      fields.forEach((t, i) => write(w, t, (value as DbusValue[])[i] ?? 0));
      return;
    }
    default:
      throw new DbusError(`cannot write type ${type}`);
  }
}

class Reader {
  pos = 0;
  private depth = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly little: boolean,
  ) {}

  align(n: number): void {
    this.pos += (n - (this.pos % n)) % n;
  }
  need(n: number): void {
    if (this.pos + n > this.buf.length) throw new DbusError('truncated D-Bus message');
  }
  u32(): number {
    this.align(4);
    this.need(4);
    const v = this.little ? this.buf.readUInt32LE(this.pos) : this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  read(type: string): DbusValue {
    const container = type[0] === 'a' || type[0] === '(' || type[0] === '{' || type[0] === 'v';
    if (!container) return this.readType(type);
    if (++this.depth > MAX_DEPTH) throw new DbusError('D-Bus value nested too deeply');
    try {
      return this.readType(type);
    } finally {
      this.depth--;
    }
  }
  private readType(type: string): DbusValue {
    switch (type[0]) {
      case 'y':
        this.need(1);
        return this.buf[this.pos++]!;
      case 'b':
        return this.u32() !== 0;
      case 'u':
        return this.u32();
      case 'i':
        return this.u32() | 0;
      case 'n':
      case 'q': {
        this.align(2);
        this.need(2);
        const v = this.little ? this.buf.readUInt16LE(this.pos) : this.buf.readUInt16BE(this.pos);
        this.pos += 2;
        return type === 'n' ? (v << 16) >> 16 : v;
      }
      case 'x':
      case 't':
      case 'd':
        this.align(8);
        this.need(8);
        this.pos += 8;
        return 0; // not used by a secret lookup; skipped
      case 's':
      case 'o': {
        const n = this.u32();
        this.need(n + 1);
        const s = this.buf.toString('utf8', this.pos, this.pos + n);
        this.pos += n + 1;
        return s;
      }
      case 'g': {
        this.need(1);
        const n = this.buf[this.pos++]!;
        this.need(n + 1);
        const s = this.buf.toString('latin1', this.pos, this.pos + n);
        this.pos += n + 1;
        return s;
      }
      case 'v': {
        const sig = this.read('g') as string;
        const types = splitTypes(sig);
        if (types.length !== 1) throw new DbusError(`a variant holds one complete type, got "${sig}"`);
        return { variant: sig, value: this.read(sig) };
      }
      case 'h':
        return this.u32();
      case 'a': {
        const n = this.u32();
        const elem = type.slice(1);
        this.align(alignOf(elem));
        this.need(n);
        const end = this.pos + n;
        if (elem === 'y') {
          const bytes = Uint8Array.prototype.slice.call(this.buf, this.pos, end);
          this.pos = end;
          return bytes;
        }
        const items: DbusValue[] = [];
        while (this.pos < end) {
          const at = this.pos;
          items.push(this.read(elem));
          if (this.pos === at) throw new DbusError('malformed D-Bus array');
        }
        if (this.pos !== end) throw new DbusError('malformed D-Bus array');
        return items;
      }
      case '(':
      case '{':
        this.align(8);
        return splitTypes(type.slice(1, -1)).map((t) => this.read(t));
      default:
        throw new DbusError(`cannot read type ${type}`);
    }
  }
}

/** A method call: `body` holds one value per complete type of `signature`. */
export interface Call {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: DbusValue[];
}

export function encodeCall(serial: number, call: Call): Buffer {
  const w = new Writer();
  w.byte(0x6c); // 'l': little-endian
  w.byte(METHOD_CALL);
  w.byte(0); // flags
  w.byte(1); // protocol version
  w.u32(0); // body length, set below
  w.u32(serial);
  const fields: DbusValue[] = [
    [PATH, { variant: 'o', value: call.path }],
    [INTERFACE, { variant: 's', value: call.interface }],
    [MEMBER, { variant: 's', value: call.member }],
    [DESTINATION, { variant: 's', value: call.destination }],
  ];
  if (call.signature) fields.push([SIGNATURE, { variant: 'g', value: call.signature }]);
  write(w, 'a(yv)', fields);
  w.align(8);
  const bodyStart = w.length;
  const types = splitTypes(call.signature ?? '');
  types.forEach((t, i) => write(w, t, call.body?.[i] ?? 0));
  w.setU32(4, w.length - bodyStart);
  return Buffer.from(w.bytes());
}

export interface Incoming {
  type: number;
  replySerial?: number;
  errorName?: string;
  body: DbusValue[];
}

/** One whole message at the start of `buf`: its length, or 0 when more bytes are needed. */
export function messageLength(buf: Buffer): number {
  if (buf.length < 16) return 0;
  const little = buf[0] === 0x6c;
  if (!little && buf[0] !== 0x42) throw new DbusError('not a D-Bus message');
  const u32 = (at: number) => (little ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const fieldsLength = u32(12);
  const total = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8) + u32(4);
  if (total > MAX_MESSAGE) throw new DbusError('D-Bus message too large');
  return buf.length >= total ? total : 0;
}

export function decode(buf: Buffer): Incoming {
  const r = new Reader(buf, buf[0] === 0x6c);
  r.pos = 1;
  const type = r.read('y') as number;
  r.pos = 8;
  r.u32(); // serial
  const fields = r.read('a(yv)') as Array<[number, { variant: string; value: DbusValue }]>;
  let replySerial: number | undefined;
  let errorName: string | undefined;
  let signature = '';
  for (const [code, v] of fields) {
    if (code === REPLY_SERIAL) replySerial = v.value as number;
    else if (code === ERROR_NAME) errorName = v.value as string;
    else if (code === SIGNATURE) signature = v.value as string;
  }
  r.align(8);
  const body = splitTypes(signature).map((t) => r.read(t));
  return { type, replySerial, errorName, body };
}

