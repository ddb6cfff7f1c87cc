// Redaction for the --verbose trace (COMMANDS.md: "Authorization values, passwords,
// codes, tokens, secrets and recovery codes are redacted"). The trace is pasted into
// bug reports and CI logs, so this errs on the side of hiding too much: any field,
// query parameter or header whose name looks secret loses its value.

export const REDACTED = '[redacted]';

/** Names compared after lower-casing and dropping everything but letters and digits. */
const exactNames = new Set([
  'code',
  'codes',
  'recoverycode',
  'recoverycodes',
  'otp',
  'pin',
  'cvc',
  'cvv',
  'key',
  'nonce',
]);

/** A normalised name containing one of these is secret: access_token, PaymentToken,
 * PaymentClientSecret, otpauth_uri, qr_code_png_base64, SetupIntent, Password… */
const secretParts = [
  'password',
  'passwd',
  'secret',
  'token',
  'otpauth',
  'qrcode',
  'setupintent',
  'authorization',
  'cookie',
  'signature',
  'privatekey',
  'credential',
  'session',
  'apikey',
  'apisecret',
];

/** Harmless names that would otherwise match a part above; they help debugging. */
const publicNames = new Set(['tokentype']);

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSecretName(name: string): boolean {
  const n = normalise(name);
  if (publicNames.has(n)) return false;
  return exactNames.has(n) || secretParts.some((part) => n.includes(part));
}

/**
 * A copy of a JSON value with secret-named fields replaced. Booleans and null stay:
 * `two_factor_required: true` or `PasswordMustChange: false` reveal nothing and help.
 */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretName(k) && v !== null && typeof v !== 'boolean' ? REDACTED : redactJson(v);
  }
  return out;
}

/** Keeps the scheme word (bearer, or the D1 word) so the trace shows which auth was used. */
export function redactAuthorization(value: string): string {
  const space = value.trim().indexOf(' ');
  return space > 0 ? `${value.trim().slice(0, space)} ${REDACTED}` : REDACTED;
}

/** Headers that name a scheme, never carry one's secret: they help debug a 401. */
const publicHeaders = new Set(['www-authenticate', 'proxy-authenticate']);

/**
 * A header whose value is secret: a secret name, or one naming a key or auth
 * (`X-Api-Key`, `X-Auth-Token`, `X-Key-Id`…), as a header added with `bo api -H` may.
 */
export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  if (publicHeaders.has(n)) return false;
  return isSecretName(n) || /key|auth/.test(normalise(n));
}

export function redactHeader(name: string, value: string): string {
  const n = name.toLowerCase();
  if (n === 'authorization' || n === 'proxy-authorization') return redactAuthorization(value);
  return isSecretHeader(n) ? REDACTED : value;
}

export function redactUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  for (const name of new Set(copy.searchParams.keys())) {
    if (isSecretName(name)) {
      const count = copy.searchParams.getAll(name).length;
      copy.searchParams.delete(name);
      for (let i = 0; i < count; i++) copy.searchParams.append(name, REDACTED);
    }
  }
  // URLSearchParams encodes the brackets; keep the marker readable.
  return copy.href.replaceAll(encodeURIComponent(REDACTED), REDACTED);
}

const jsonKey = /"((?:[^"\\]|\\.)*)"\s*:\s*/g;
const formPair = /(^|[&?\s;])([A-Za-z0-9_.\-[\]]+)=([^&\s;]*)/g;
const authWord = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=:-]+/gi;

/** Where the JSON value starting at `i` ends; the end of the text when it is cut short. */
function valueEnd(text: string, i: number): number {
  let depth = 0;
  let inString = false;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (inString) {
      if (c === '\\') j++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return j + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (depth === 0) return j;
      if (--depth === 0) return j + 1;
    } else if (depth === 0 && (c === ',' || /\s/.test(c!))) return j;
  }
  return text.length;
}

function redactJsonPairs(text: string): string {
  let out = '';
  let last = 0;
  jsonKey.lastIndex = 0;
  for (let m = jsonKey.exec(text); m; m = jsonKey.exec(text)) {
    const start = m.index + m[0].length;
    if (!isSecretName(m[1]!)) continue;
    const end = valueEnd(text, start);
    if (/^(true|false|null)$/.test(text.slice(start, end))) continue;
    out += `${text.slice(last, start)}"${REDACTED}"`;
    last = end;
    jsonKey.lastIndex = end;
  }
  return out + text.slice(last);
}

/**
 * For bodies that are not (or no longer) valid JSON: malformed answers, text, form
 * data, or a JSON text cut short. Catches `"name": value`, `name=value` and
 * `bearer xyz` patterns.
 */
export function redactText(text: string): string {
  return redactJsonPairs(text)
    .replace(formPair, (all, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${REDACTED}` : all))
    .replace(authWord, (_all, word: string) => `${word} ${REDACTED}`);
}
