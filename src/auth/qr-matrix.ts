// The QR module matrix for a text, from qrcode-generator's public API (Kazuhiko Arase's
// encoder, MIT, no dependencies): the one source of the symbol that the terminal QR of
// `bo login` (src/auth/qr.ts) and the sandbox's PNG (src/sandbox/auth/qr-png.ts) draw,
// so both show the same code. Imported, so that it is bundled: a single executable has
// no node_modules to find it in at run time.

import qrcode from 'qrcode-generator';

/**
 * Rows of modules, true for dark, without a quiet zone. Error-correction level L: the
 * smallest symbol, so a long otpauth URI still fits a terminal; a screen is never
 * smudged. The type number is chosen by the encoder (0: the smallest that holds the text).
 */
export function qrMatrix(text: string): boolean[][] {
  const qr = qrcode(0, 'L');
  // Byte mode writes one byte per UTF-16 unit (its default stringToBytes keeps the low
  // 8 bits): hand it the text's UTF-8 bytes.
  qr.addData(Buffer.from(text, 'utf8').toString('latin1'), 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  return Array.from({ length: size }, (_, r) => Array.from({ length: size }, (_, c) => qr.isDark(r, c)));
}
