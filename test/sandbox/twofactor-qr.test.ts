// The QR matrix and the hand-written PNG behind `qr_code_png_base64`: a PNG decoder
// (zbarimg) must read back exactly the text, and the image must follow the PNG layout.

import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { qrMatrix } from '../../src/auth/qr-matrix.js';
import { crc32, qrPng } from '../../src/sandbox/auth/qr-png.js';
import { decodeQrPng } from '../helpers/zbar.js';

describe('qrMatrix', () => {
  it('is square with the three finder patterns in place', () => {
    const m = qrMatrix('otpauth://totp/x');
    const n = m.length;
    expect(n).toBeGreaterThanOrEqual(21);
    expect((n - 17) % 4).toBe(0); // sizes are 17 + 4 × version
    for (const row of m) expect(row).toHaveLength(n);
    for (const [r, c] of [[0, 0], [0, n - 7], [n - 7, 0]] as const) {
      // A finder is a dark 7×7 ring, a light ring, and a dark 3×3 centre.
      expect(m[r]!.slice(c, c + 7).every(Boolean)).toBe(true);
      expect(m[r + 1]![c + 1]).toBe(false);
      expect(m[r + 3]![c + 3]).toBe(true);
    }
  });
});

describe('qrPng', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('writes a grayscale PNG, 8 px a module with a 4-module quiet zone, with valid chunk CRCs', () => {
    const text = 'otpauth://totp/bo%20sandbox:a%40example.com?secret=ABC';
    const png = qrPng(text);
    const size = (qrMatrix(text).length + 8) * 8;
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(size);
    expect(png.readUInt32BE(20)).toBe(size);
    expect([png[24], png[25]]).toEqual([8, 0]);
    let offset = 8;
    const types: string[] = [];
    let idat = Buffer.alloc(0);
    while (offset < png.length) {
      const length = png.readUInt32BE(offset);
      const typed = png.subarray(offset + 4, offset + 8 + length);
      types.push(typed.subarray(0, 4).toString('ascii'));
      expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typed));
      if (types.at(-1) === 'IDAT') idat = Buffer.concat([idat, typed.subarray(4)]);
      offset += 12 + length;
    }
    expect(types).toEqual(['IHDR', 'IDAT', 'IEND']);
    const raw = inflateSync(idat);
    expect(raw.length).toBe(size * (size + 1));
    // The quiet zone: the first 32 rows are white.
    expect(raw.subarray(1, size + 1).every((b) => b === 255)).toBe(true);
  });

  it.each(['hello', 'otpauth://totp/bo%20sandbox:someone.with.a.long.name%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=bo%20sandbox&algorithm=SHA1&digits=6&period=30'])(
    'reads back as the text it encodes: %s',
    (text) => {
      expect(decodeQrPng(qrPng(text))).toBe(text);
    },
  );
});
