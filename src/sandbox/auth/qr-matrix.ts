// The QR module matrix for a text, from the encoder vendored inside qrcode-terminal (a
// dependency already, for the terminal QR of `bo login`), so the sandbox's PNG and the
// terminal drawing show the same symbol without a second QR library.

import { createRequire } from 'node:module';

interface VendoredQrCode {
  addData(data: string): void;
  make(): void;
  getModuleCount(): number;
  isDark(row: number, col: number): boolean;
}

type VendoredQrCodeClass = new (typeNumber: number, errorCorrectLevel: number) => VendoredQrCode;

/**
 * Rows of modules, true for dark, without a quiet zone. Error correction level L (as
 * qrcode-terminal uses), the smallest symbol for a long otpauth URI. The vendored
 * encoder writes one byte per UTF-16 unit, so the text goes in as its UTF-8 bytes.
 */
export function qrMatrix(text: string): boolean[][] {
  const require = createRequire(import.meta.url);
  const QRCode = require('qrcode-terminal/vendor/QRCode/index.js') as VendoredQrCodeClass;
  const levels = require('qrcode-terminal/vendor/QRCode/QRErrorCorrectLevel.js') as { L: number };
  const qr = new QRCode(-1, levels.L);
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
