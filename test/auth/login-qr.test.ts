// The terminal QR of `bo login`: drawn with explicit colours on every cell, a quiet
// zone, and decodable: the drawing is read back from its ANSI colours into an image and
// decoded by zbarimg, an independent decoder.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawQr, qrFor, qrMatrix, QUIET_ZONE } from '../../src/auth/qr.js';
import { decodeWithZbar, matrixFromAnsi, pngFromMatrix } from '../e2e/qr-image.js';

const dir = mkdtempSync(join(tmpdir(), 'bo-qr-'));

describe('terminal QR', () => {
  it.each([
    'otpauth://totp/bo:enroll%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=bo&algorithm=SHA1&digits=6&period=30',
    'otpauth://totp/Acme%20Back%20Office:z%C3%BCrich.user%40example.com?secret=ABCDEFGHIJKLMNOPQRSTUVWXYZ234567&issuer=Acme',
    'otpauth://totp/Café:léa@example.com?secret=GEZDGNBVGY3TQOJQ&issuer=Café',
  ])('decodes back to the text with zbarimg: %s', (uri) => {
    const lines = drawQr(uri);
    const matrix = matrixFromAnsi(lines.join('\n'));
    expect(decodeWithZbar(join(dir, 'qr.png'), pngFromMatrix(matrix))).toBe(uri);
  });

  it('sets both colours explicitly on every line and resets at its end, with a white quiet zone', () => {
    const lines = drawQr('otpauth://totp/bo:a%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=bo');
    for (const line of lines) {
      expect(line.startsWith('\u001b[38;5;')).toBe(true);
      expect(line.endsWith('\u001b[0m')).toBe(true);
    }
    const m = matrixFromAnsi(lines.join('\n'));
    for (let i = 0; i < QUIET_ZONE; i++) {
      expect(m[i]!.every((dark) => !dark)).toBe(true);
      expect(m.every((row) => !row[i] && !row[row.length - 1 - i])).toBe(true);
    }
    // The finder pattern starts right after the quiet zone.
    expect(m[QUIET_ZONE]![QUIET_ZONE]).toBe(true);
  });
});

describe('a QR code that must fit the terminal\'s height', () => {
  const uri = 'otpauth://totp/Acme%20Back%20Office:ada%40acme.example?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Acme%20Back%20Office';
  const term = { columns: 80, unicode: true, color: true };
  const tall = Math.ceil((qrMatrix(uri).length + 2 * QUIET_ZONE) / 2);

  it('is drawn when its lines and the text with it fit the rows', () => {
    const qr = qrFor(uri, { ...term, rows: tall + 7 }, 2, 7);
    expect('lines' in qr && qr.lines.length).toBe(tall);
  });

  it('is not drawn one row short, and says how many rows it needs', () => {
    expect(qrFor(uri, { ...term, rows: tall + 6 }, 2, 7)).toEqual({ why: `it needs ${tall + 7} rows with its prompt and the terminal has ${tall + 6}` });
  });

  it('an unknown height is taken to be tall enough', () => {
    expect('lines' in qrFor(uri, term, 2, 7)).toBe(true);
  });
});
