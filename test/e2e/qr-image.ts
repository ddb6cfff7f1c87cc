// Turns a QR drawn in a terminal back into an image a real decoder can read: the ANSI
// colours of each '▀' cell (foreground = upper module, background = lower module) are
// read back into a module matrix, written as a PNG (node:zlib and CRC-32, no image
// library), and decoded with zbarimg. Shared by the QR unit test and the tmux e2e test.

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

type Colour = { kind: 'default' } | { kind: 'indexed'; n: number } | { kind: 'rgb'; r: number; g: number; b: number };

/** Light or dark as a phone would see it; null for the terminal's own default colour. */
function isDark(c: Colour): boolean | null {
  if (c.kind === 'default') return null;
  if (c.kind === 'rgb') return c.r + c.g + c.b < 384;
  const n = c.n;
  if (n === 0 || n === 16 || n === 8) return true;
  if (n === 7 || n === 15 || n === 231) return false;
  throw new Error(`unexpected colour index ${n} in the QR`);
}

function applySgr(params: number[], state: { fg: Colour; bg: Colour }): void {
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === 0) {
      state.fg = { kind: 'default' };
      state.bg = { kind: 'default' };
    } else if (p === 38 || p === 48) {
      const key = p === 38 ? 'fg' : 'bg';
      if (params[i + 1] === 5) {
        state[key] = { kind: 'indexed', n: params[i + 2]! };
        i += 2;
      } else if (params[i + 1] === 2) {
        state[key] = { kind: 'rgb', r: params[i + 2]!, g: params[i + 3]!, b: params[i + 4]! };
        i += 4;
      }
    } else if (p === 39) state.fg = { kind: 'default' };
    else if (p === 49) state.bg = { kind: 'default' };
    else if (p >= 30 && p <= 37) state.fg = { kind: 'indexed', n: p - 30 };
    else if (p >= 90 && p <= 97) state.fg = { kind: 'indexed', n: p - 90 + 8 };
    else if (p >= 40 && p <= 47) state.bg = { kind: 'indexed', n: p - 40 };
    else if (p >= 100 && p <= 107) state.bg = { kind: 'indexed', n: p - 100 + 8 };
  }
}

/**
 * The module matrix (true = dark) of every line holding '▀' cells. A cell drawn in the
 * terminal's default colours is an error: it would flip between dark and light themes.
 */
export function matrixFromAnsi(text: string): boolean[][] {
  const rows: boolean[][] = [];
  for (const line of text.split('\n')) {
    if (!line.includes('\u2580')) continue;
    const state = { fg: { kind: 'default' } as Colour, bg: { kind: 'default' } as Colour };
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    const re = /\u001b\[([0-9;]*)m|(\u2580)|[^\u001b]/g;
    for (const m of line.matchAll(re)) {
      if (m[1] !== undefined) applySgr(m[1] === '' ? [0] : m[1].split(';').map(Number), state);
      else if (m[2]) {
        const up = isDark(state.fg);
        const down = isDark(state.bg);
        if (up === null || down === null) throw new Error('a QR cell uses the terminal default colour');
        top.push(up);
        bottom.push(down);
      }
    }
    rows.push(top, bottom);
  }
  return rows;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An 8-bit grayscale PNG, `scale` pixels per module; no extra margin (the drawing has its own). */
export function pngFromMatrix(matrix: boolean[][], scale = 6): Buffer {
  const height = matrix.length * scale;
  const width = (matrix[0]?.length ?? 0) * scale;
  const raw = Buffer.alloc(height * (width + 1), 255);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    const row = matrix[Math.floor(y / scale)]!;
    for (let x = 0; x < width; x++) if (row[Math.floor(x / scale)]) raw[y * (width + 1) + 1 + x] = 0;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What zbarimg reads in the PNG at `file`, as UTF-8 (-Sbinary: no charset guessing). */
export function decodeWithZbar(file: string, png: Buffer): string {
  writeFileSync(file, png);
  return execFileSync('zbarimg', ['--raw', '-q', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8').replace(/\n$/, '');
}
