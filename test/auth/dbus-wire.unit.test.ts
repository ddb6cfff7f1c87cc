// The D-Bus wire format (src/auth/stores/dbus-wire.ts): what encodeCall writes, decode
// reads back, for generated signatures and values; and whatever bytes a peer sends,
// decode answers a message or a DbusError — never another exception, never a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DbusError, decode, encodeCall, messageLength, type DbusValue } from '../../src/auth/stores/dbus-wire.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

/** A complete type the writer supports, with an arbitrary of its values. */
interface Typed {
  sig: string;
  value: fc.Arbitrary<DbusValue>;
}

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const objectPath = fc
  .array(fc.stringMatching(/^[A-Za-z0-9_]{1,8}$/), { maxLength: 4 })
  .map((parts) => `/${parts.join('/')}`);
const basic: Typed[] = [
  { sig: 'y', value: fc.integer({ min: 0, max: 255 }) },
  { sig: 'b', value: fc.boolean() },
  { sig: 'u', value: fc.nat({ max: 0xffffffff }) },
  { sig: 's', value: text },
  { sig: 'o', value: objectPath },
  { sig: 'g', value: fc.constantFrom('', 's', 'a{sv}', 'o', '(oayays)') },
  { sig: 'ay', value: fc.uint8Array({ maxLength: 64 }) },
];

const typed: fc.Arbitrary<Typed> = fc.letrec<{ t: Typed }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...basic),
    tie('t').map((e) => ({ sig: `a${e.sig}`, value: fc.array(e.value, { maxLength: 4 }) as fc.Arbitrary<DbusValue> })),
    fc.array(tie('t'), { minLength: 1, maxLength: 3 }).map((fields) => ({
      sig: `(${fields.map((f) => f.sig).join('')})`,
      value: fc.tuple(...fields.map((f) => f.value)) as fc.Arbitrary<DbusValue>,
    })),
    fc.constantFrom(...basic).chain((b) =>
      fc.constant({ sig: 'v', value: b.value.map((value) => ({ variant: b.sig, value })) as fc.Arbitrary<DbusValue> }),
    ),
  ),
})).t;

/** Decoded values compare as plain data (byte arrays as arrays of numbers). */
function plain(v: DbusValue): unknown {
  if (v instanceof Uint8Array) return [...v];
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object') return { variant: v.variant, value: plain(v.value) };
  return v;
}

describe('D-Bus wire format', () => {
  it('decodes what it encodes, for generated signatures and values', () => {
    fc.assert(
      fc.property(
        fc.array(typed, { minLength: 0, maxLength: 4 }).chain((types) =>
          fc.record({ serial: fc.integer({ min: 1, max: 0xffffffff }), sig: fc.constant(types.map((t) => t.sig).join('')), body: fc.tuple(...types.map((t) => t.value)) }),
        ),
        ({ serial, sig, body }) => {
          if (sig.length > 255) return; // a signature is at most 255 bytes
          const bytes = encodeCall(serial, { destination: 'org.example', path: '/x', interface: 'org.example.I', member: 'M', signature: sig, body: body as DbusValue[] });
          expect(messageLength(bytes)).toBe(bytes.length);
          const message = decode(bytes);
          expect(message.type).toBe(1);
          expect(message.body.map(plain)).toEqual((body as DbusValue[]).map(plain));
        },
      ),
      { numRuns: fuzzRuns(300), seed: 19 },
    );
  });

  it('answers garbage with a DbusError or a message, never another exception or a hang', () => {
    const header = (sig: string, body: Uint8Array) => {
      const good = encodeCall(7, { destination: 'd', path: '/p', interface: 'i.f', member: 'M', signature: sig, body: [] as DbusValue[] });
      // Keep the header (with the signature field) and put the generated body behind it.
      const fieldsLength = good.readUInt32LE(12);
      const start = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
      const out = Buffer.concat([good.subarray(0, start), body]);
      out.writeUInt32LE(body.length, 4);
      return out;
    };
    const nested = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      fc.tuple(fc.constantFrom('v', 'av', 'aay', 'a()', 'a{}', 'a{sv}', '()', 'a(yv)', 'aaaaaaaaay'), fc.uint8Array({ maxLength: 200 })).map(([s, b]) => {
        try {
          return header(s, b);
        } catch {
          return Buffer.from(b); // the writer refuses that signature itself
        }
      }),
    );
    fc.assert(
      fc.property(nested, (bytes) => {
        try {
          decode(bytes);
        } catch (err) {
          expect(err).toBeInstanceOf(DbusError);
        }
      }),
      { numRuns: fuzzRuns(2000), seed: 14 },
    );
  });

  it('refuses variants nested deeper than the specification allows, rather than overflowing the stack', () => {
    // A variant holding a variant holding …: 2 bytes each ("\x01v\x00" after alignment).
    const depth = 200_000;
    const body = Buffer.alloc(depth * 3);
    for (let i = 0; i < depth; i++) body.set([1, 0x76, 0], i * 3);
    const good = encodeCall(7, { destination: 'd', path: '/p', interface: 'i.f', member: 'M', signature: 'v', body: [{ variant: 'y', value: 1 }] });
    const fieldsLength = good.readUInt32LE(12);
    const start = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
    const bytes = Buffer.concat([good.subarray(0, start), body]);
    expect(() => decode(bytes)).toThrow(DbusError);
  });

  it('refuses an array of empty structs, which would never advance', () => {
    const good = encodeCall(7, { destination: 'd', path: '/p', interface: 'i.f', member: 'M', signature: 'ay', body: [new Uint8Array()] });
    const fieldsLength = good.readUInt32LE(12);
    const at = 16 + 8; // the first header field's signature byte sits after the field code and its padding
    expect(at).toBeLessThan(16 + fieldsLength);
    // Rewrite the body signature "ay" as "a()" is not possible in place (lengths differ): build it by hand.
    const sigField = Buffer.from('a()', 'latin1');
    const withSig = Buffer.concat([good.subarray(0, 16 + fieldsLength)]);
    const sigAt = withSig.indexOf(Buffer.from([2, 0x61, 0x79, 0])); // length 2, "ay", NUL
    expect(sigAt).toBeGreaterThan(0);
    const fields = Buffer.concat([withSig.subarray(16, sigAt), Buffer.from([3]), sigField, Buffer.from([0])]);
    const pad = (8 - (fields.length % 8)) % 8;
    const body = Buffer.alloc(16); // array length 8, then 8 bytes of "elements"
    body.writeUInt32LE(8, 0);
    const message = Buffer.concat([good.subarray(0, 16), fields, Buffer.alloc(pad), body]);
    message.writeUInt32LE(fields.length, 12);
    message.writeUInt32LE(body.length, 4);
    expect(() => decode(message)).toThrow(DbusError);
  });
});
