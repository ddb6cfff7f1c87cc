// Reads a QR code out of a PNG with zbarimg (Debian zbar-tools), an independent
// decoder: if it reads back the text, a phone's camera will too. CI installs it; a
// missing zbarimg fails the test rather than skipping it.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function decodeQrPng(png: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-qr-'));
  try {
    const file = join(dir, 'qr.png');
    writeFileSync(file, png);
    return execFileSync('zbarimg', ['--raw', '-q', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).replace(/\n$/, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
