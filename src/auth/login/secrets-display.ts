// Showing and keeping the secrets of an enrollment: the TOTP setup (QR, secret, URI,
// --qr-png) and the recovery codes (a box shown once, --recovery-codes-file). Secrets
// go to stderr only when it is a terminal; a log gets a pointer to the file instead.
// Files are created 0600 and never replace an existing file ('wx').

import { rm, writeFile } from 'node:fs/promises';
import type { TotpEnrollment } from '../../api/tokens.js';
import { BoError } from '../../errors.js';
import { symbolsFor, type BoxChars } from '../../output/symbols.js';
import { neutralise } from '../../api/neutralise.js';
import { pngBytes } from './server-answers.js';
import type { Screen } from './screen.js';

/** "JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP": easier to type into an app by hand. */
export function groupsOfFour(secret: string): string {
  return secret.replace(/\s+/g, '').match(/.{1,4}/g)?.join(' ') ?? '';
}

async function writeSecretFile(path: string, data: string | Buffer, flag: string): Promise<void> {
  try {
    await writeFile(path, data, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    throw new BoError(`${flag}: could not write ${path}: ${(err as Error).message}`);
  }
}

export async function showTotpSetup(
  screen: Screen,
  e: TotpEnrollment,
  qrPng: string | undefined,
  options: { replaceQrPng?: boolean; loginCommand?: string } = {},
): Promise<void> {
  if (qrPng) {
    // After a restart the file holds this run's earlier, now void, QR code: replace it.
    const png = pngBytes(e.qr_code_png_base64, options.loginCommand);
    if (options.replaceQrPng) await rm(qrPng, { force: true });
    await writeSecretFile(qrPng, png, '--qr-png');
    screen.say(`Wrote the QR code to ${qrPng} (it holds the secret: delete it once scanned).`);
  }
  if (!screen.tty) {
    screen.say('Began authenticator setup (the secret is shown only on a terminal; --code-command gets it in BO_TOTP_SECRET).');
    if (!qrPng) screen.say(`No QR code without a terminal: run ${options.loginCommand ?? 'bo login'} with --qr-png <file> to get it as an image.`);
    return;
  }
  // The QR library loads only when a code is drawn.
  const { qrFor } = await import('../qr.js');
  const uri = `Setup URI: ${e.otpauth_uri}`;
  // With the QR on the screen at once: the line above it, the blank lines, the secret,
  // the setup URI (as many lines as it wraps to) and the prompt for the code.
  const around = 5 + (screen.qr.columns ? Math.ceil(uri.length / screen.qr.columns) : 1);
  const qr = qrFor(e.otpauth_uri, screen.qr, 2, around);
  if ('lines' in qr) {
    screen.say('Scan this QR code with your authenticator app:');
    screen.say('');
    for (const line of qr.lines) screen.picture(`  ${line}`);
    screen.say('');
    screen.say(`Or enter this secret by hand: ${groupsOfFour(e.secret)}`);
  } else {
    // A QR that wraps, or has no colours, cannot be scanned: none is drawn, and the
    // person is told why and what to use instead.
    screen.say(`No QR code here: ${qr.why} (a QR code that wraps, scrolls off the screen or has no colours cannot be scanned).`);
    screen.say(`In your authenticator app, enter this secret by hand: ${groupsOfFour(e.secret)}`);
    if (!qrPng) screen.say(`(or run ${options.loginCommand ?? 'bo login'} again with --qr-png <file> to get the QR code as an image)`);
  }
  screen.say(uri);
}

/** The recovery codes in a box with the warning inside it, so it cannot be missed. */
export function recoveryBox(codes: string[], box: BoxChars = symbolsFor(true).box): string[] {
  const text = [
    'Recovery codes: save these now.',
    'They will not be shown again. Each one signs you in once',
    'if you lose your authenticator or email.',
    '',
    ...codes.map((c) => `  ${c}`),
  ];
  const width = Math.max(...text.map((t) => t.length));
  return [
    `${box.tl}${box.h.repeat(width + 2)}${box.tr}`,
    ...text.map((t) => `${box.v} ${t.padEnd(width)} ${box.v}`),
    `${box.bl}${box.h.repeat(width + 2)}${box.br}`,
  ];
}

export async function keepRecoveryCodes(screen: Screen, given: string[], file: string | undefined, box?: BoxChars): Promise<void> {
  // Codes come from the server: escape sequences and controls never reach the file or
  // the screen (refusing them instead would lose the good ones, shown only this once).
  const codes = given.map((c) => neutralise(c).trim()).filter((c) => c !== '');
  if (codes.length === 0) return;
  let written = false;
  if (file) {
    try {
      await writeSecretFile(file, `${codes.join('\n')}\n`, '--recovery-codes-file');
      written = true;
      screen.say(`Wrote ${codes.length} recovery codes to ${file} (mode 0600).`);
    } catch (err) {
      screen.say(`warning: ${(err as Error).message}`);
    }
  }
  // Shown on a terminal always; in a log only when the file could not be written,
  // since codes the server returns once are worse lost than logged.
  if (screen.tty || !written) for (const line of recoveryBox(codes, box)) screen.say(line);
}
