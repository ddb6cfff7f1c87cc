// The one way an endpoint path is built from values: `apiPath\`/crm/deals/${uid}\``.
// Each variable becomes exactly one segment, percent-encoded, so no character in it
// (`/`, `\`, `?`, `#`, `%`, dots…) can add, remove or resolve a segment: the request
// goes to the endpoint the template names, for the record the variable names.
// Also the rules `bo api` applies to a path typed whole (checkRawPath).

import { UsageError } from '../errors.js';

/** A UTF-16 half without its other half: it has no UTF-8 form to send. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Decodings looked at: far more than any chain of proxies applies; bounds the work on long text. */
const MAX_DECODINGS = 10;

/**
 * The text, then the text with its escapes decoded, again while that changes: what a
 * server, or a proxy before it that decodes once more, may read.
 */
function* decodings(text: string): Generator<string> {
  let current = text;
  for (let n = 0; n <= MAX_DECODINGS; n++) {
    yield current;
    if (!current.includes('%')) return;
    const next = decodeSegment(current);
    if (next === current) return;
    current = next;
  }
}

/**
 * `.` or `..`, written plainly or percent-encoded once or more (`%2e`, `.%2E`,
 * `%252e`): URL resolution removes them (`%2e` counts as a dot there), and so would a
 * server that decodes twice.
 */
export function isDotSegment(text: string): boolean {
  for (const form of decodings(text)) if (form === '.' || form === '..') return true;
  return false;
}

/** A `/` or `\` that appears once escapes are decoded: a server that decodes it splits the segment. */
function hasEncodedSeparator(segment: string): boolean {
  for (const form of decodings(segment)) if (form !== segment && /[/\\]/.test(form)) return true;
  return false;
}

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** One path segment for a variable; throws where no encoding would keep the path's shape. */
export function pathSegment(value: string): string {
  if (value === '') throw new UsageError('an empty value cannot name a record in a request path');
  if (isDotSegment(value)) throw new UsageError(`${JSON.stringify(value)} cannot name a record: in a path it would mean another endpoint`);
  if (hasLoneSurrogate(value)) throw new UsageError(`${JSON.stringify(value)} is not valid Unicode and cannot be sent in a path`);
  return encodeURIComponent(value);
}

/**
 * A tagged template for endpoint paths: the literal text is kept as written, each
 * variable is one whole segment (between `/` and `/` or the end), encoded by pathSegment.
 */
export function apiPath(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const after = strings[i + 1]!;
    if (!out.endsWith('/') || !(after === '' || after.startsWith('/'))) {
      throw new Error(`apiPath: variable ${i + 1} of ${strings.join('${…}')} is not a whole segment`);
    }
    out += pathSegment(value) + after;
  });
  return out;
}

/**
 * A path typed whole (`bo api`), with its leading `/`: refuses (exit 2)
 * a path whose shape the URL parser or a server would change: an empty segment (`//`,
 * a trailing `/`), a `.` or `..` segment in any encoding, an encoded `/` or `\`, a `\`
 * (URLs treat it as `/`). What is accepted is sent as typed.
 */
export function checkRawPath(path: string, label: string, shown = path): void {
  const segments = path.replace(/^\//, '').split('/');
  const refuse = (why: string) => new UsageError(`${label} ${why}: ${JSON.stringify(shown)}`, {
    hint: 'give the endpoint as it is named, e.g. /crm/accounts/<uid>: every segment non-empty, none "." or ".."',
  });
  if (path.includes('\\')) throw refuse('contains a "\\", which URLs read as "/"');
  for (const segment of segments) {
    if (segment === '') throw refuse(segments.length === 1 ? 'names no endpoint' : 'has an empty segment (// or a trailing /)');
    if (isDotSegment(segment)) throw refuse(`has a "${segment}" segment, which would resolve to another endpoint`);
    if (hasEncodedSeparator(segment)) throw refuse(`has an encoded "/" or "\\" in the segment ${JSON.stringify(segment)}`);
  }
}

/** A segment with its %XX escapes decoded where they form UTF-8, as a server reads it. */
export function decodeSegment(segment: string): string {
  return segment.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
