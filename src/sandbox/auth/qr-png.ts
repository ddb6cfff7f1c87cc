// A PNG of a QR code for `qr_code_png_base64`, written by hand (signature, IHDR, IDAT,
// IEND) with node:zlib, to avoid an image dependency. 8-bit grayscale, no interlace.

import { deflateSync } from 'node:zlib';
import { qrMatrix } from '../../auth/qr-matrix.js';

const PIXELS_PER_MODULE = 8;
/** The quiet zone the QR standard requires around the symbol, in modules. */
const QUIET_MODULES = 4;

export function qrPng(text: string): Buffer {
  const matrix = qrMatrix(text);
  const modules = matrix.length + 2 * QUIET_MODULES;
  const size = modules * PIXELS_PER_MODULE;
  const raw = Buffer.alloc(size * (size + 1), 255);
  for (let y = 0; y < size; y++) {
    const rowStart = y * (size + 1);
    raw[rowStart] = 0; // filter type None
    const r = Math.floor(y / PIXELS_PER_MODULE) - QUIET_MODULES;
    for (let x = 0; x < size; x++) {
      const c = Math.floor(x / PIXELS_PER_MODULE) - QUIET_MODULES;
      if (matrix[r]?.[c] === true) raw[rowStart + 1 + x] = 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: grayscale
  // compression, filter and interlace methods stay 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** CRC-32 (IEEE, reflected, as PNG requires), bit by bit: chunks are a few kB. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
