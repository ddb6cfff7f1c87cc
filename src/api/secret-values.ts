// The secrets a run holds, scrubbed by value from every text it shows: error messages
// and hints (src/main.ts), the --verbose trace (trace.ts), and an error answer before
// any message is made of it (http.ts), so that a server echoing a secret, in a
// redirect's Location or an error_description, never gets it printed. One registry a
// run, held by the context and shared by its HTTP clients: they add the credential
// they send, the proxy's user and password, the secret-named fields of every request
// body (a password, a two-factor or recovery code, a payment token) and of token
// answers (a TOTP secret, recovery codes). Field names are the trace's (redact.ts).

import { REDACTED, isSecretName } from './redact.js';

/** Shorter values are not scrubbed: they would blank out ordinary words and numbers. */
const MIN_LENGTH = 4;
/** A base64 fragment shorter than this could be part of any text. */
const MIN_BASE64 = 6;

/** Characters .NET's default JSON encoder escapes besides controls and non-ASCII. */
const HTML_SENSITIVE = new Set(['"', '&', "'", '+', '<', '>', '`', '\\']);

/** JSON string content with the chosen UTF-16 units escaped as \uXXXX. */
function escapeUnits(value: string, escape: (unit: number) => boolean, upper: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (!escape(unit)) out += JSON.stringify(value[i]).slice(1, -1);
    else {
      const hex = unit.toString(16).padStart(4, '0');
      out += `\\u${upper ? hex.toUpperCase() : hex}`;
    }
  }
  return out;
}

/**
 * The base64 text of `bytes` wherever they sit in an encoded stream: for each of the
 * three alignments, the characters that depend on these bytes alone (those mixing in
 * a neighbour's bits are left out). Standard and URL-safe alphabets.
 */
function base64Cores(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64').replace(/=+$/, '');
    const start = shift === 0 ? 0 : shift + 1;
    const end = (shift + bytes.length) % 3 === 0 ? text.length : text.length - 1;
    const core = text.slice(start, end);
    if (core.length >= MIN_BASE64) out.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return out;
}

/**
 * Every form a value may take in text a server sends back or a message quotes: as is,
 * percent-encoded (either hex case, component or whole URL, form style), JSON-escaped
 * (minimal, non-ASCII escaped, .NET style), its UTF-8 bytes read as Latin-1 (how
 * Node reads a header), and base64 (in any alignment, either alphabet).
 */
export function secretForms(value: string): string[] {
  const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const bytes = Buffer.from(value, 'utf8');
  const percent: string[] = [];
  for (const encode of [encodeURIComponent, encodeURI]) {
    try {
      const encoded = encode(value);
      percent.push(encoded, lowerHex(encoded));
    } catch {
      // A lone surrogate has no percent-encoding.
    }
  }
  const forms = [
    value,
    ...percent,
    new URLSearchParams([['', value]]).toString().slice(1),
    JSON.stringify(value).slice(1, -1),
    escapeUnits(value, (u) => u > 0x7e, false),
    escapeUnits(value, (u) => u < 0x20 || u > 0x7e || HTML_SENSITIVE.has(String.fromCharCode(u)), true),
    bytes.toString('latin1'),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...base64Cores(bytes),
  ];
  return [...new Set(forms)].filter((f) => f.length >= MIN_LENGTH);
}

/**
 * `text` with every occurrence of every form replaced by the marker. Occurrences are
 * found in the original text and overlapping ones merged, so no text left between two
 * markers holds a whole form, whatever the order or overlap of the secrets.
 */
export function scrubForms(text: string, forms: readonly string[]): string {
  const spans: Array<[number, number]> = [];
  for (const form of forms) {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) spans.push([at, at + form.length]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let end = 0;
  for (const [from, to] of spans) {
    if (from >= end) out += text.slice(end, from) + REDACTED;
    end = Math.max(end, to);
  }
  return out + text.slice(end);
}

export class SecretValues {
  private readonly values = new Set<string>();
  private forms: string[] | undefined;

  /** Values held from now on; empty and short ones are ignored. */
  add(...values: Array<string | null | undefined>): void {
    for (const value of values) {
      if (typeof value !== 'string' || value.length < MIN_LENGTH || this.values.has(value)) continue;
      this.values.add(value);
      this.forms = undefined;
    }
  }

  /** Every string under a secret-named field of a JSON value (password, code, PaymentToken, recovery_codes…). */
  addFields(value: unknown, secret = false): void {
    if (typeof value === 'string') {
      if (secret) this.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) this.addFields(item, secret);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) this.addFields(v, secret || isSecretName(k));
    }
  }

  scrub(text: string): string {
    if (this.values.size === 0) return text;
    this.forms ??= [...this.values].flatMap(secretForms);
    return scrubForms(text, this.forms);
  }

  /** A copy of a parsed JSON value with every string (and key) scrubbed. */
  scrubValue(value: unknown): unknown {
    if (this.values.size === 0) return value;
    if (typeof value === 'string') return this.scrub(value);
    if (Array.isArray(value)) return value.map((item) => this.scrubValue(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.scrub(k), this.scrubValue(v)]));
  }
}
