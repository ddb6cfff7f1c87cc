// The QR module matrix for a text, from the encoder vendored inside qrcode-terminal (a
// dependency already, for the terminal QR of `bo login`), so the sandbox's PNG and the
// terminal drawing show the same symbol without a second QR library. Imported, so that
// it is bundled: a single executable has no node_modules to find it in at run time.

import QRCode from 'qrcode-terminal/vendor/QRCode/index.js';

/** Error-correction level L in the vendored encoder's numbering (QRErrorCorrectLevel.js). */
const LEVEL_L = 1;

/**
 * Rows of modules, true for dark, without a quiet zone. Error correction level L (as
 * qrcode-terminal uses), the smallest symbol for a long otpauth URI. The vendored
 * encoder writes one byte per UTF-16 unit, so the text goes in as its UTF-8 bytes.
 */
export function qrMatrix(text: string): boolean[][] {
  const qr = new QRCode(-1, LEVEL_L);
  qr.addData(Buffer.from(text, 'utf8').toString('latin1'));
  qr.make();
  const size = qr.getModuleCount();
  const rows: boolean[][] = [];
  for (let r = 0; r < size; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < size; c++) row.push(qr.isDark(r, c));
    rows.push(row);
  }
  return rows;
}
