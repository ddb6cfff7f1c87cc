// The one path builder (src/api/path.ts) and the URL it ends up in (buildUrl): no
// variable, whatever it holds, can add, remove or resolve a segment of an endpoint's
// path. Properties over generated strings, weighted towards the characters that
// matter: `/`, `\`, `.`, `%` and hex digits, `?`, `#`, space, non-ASCII, halves of
// surrogate pairs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../src/api/base-url.js';
import { apiPath, decodeSegment, pathSegment } from '../../src/api/path.js';
import { checkUid } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';
import { fuzzRuns } from '../helpers/fuzz-runs.js';

const RUNS = fuzzRuns(1000);

/** Strings made of the characters that can change a path, or of any code point. */
const variable = fc.oneof(
  fc.constantFrom('', '.', '..', '...', '%2e', '%2E%2e', '.%2E', '%252e%252E', '%2%65', '/', '\\', '..\\', '?', '#', '%', '%zz', 'a/..', '-'),
  fc.string({ unit: fc.constantFrom('.', '%', '2', '5', 'e', 'E', 'f', 'F', 'c', '/', '\\', '?', '#', ' ', '~', 'a', 'é', '😀', '\ud800', '\udc00'), maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/**
 * The oracle, written apart from the code: percent-escapes decoded byte-wise, again and
 * again (a server or proxy may decode twice), until nothing changes; a value that ends
 * as `.` or `..` would be a dot segment somewhere.
 */
function becomesDots(value: string): boolean {
  let text = value;
  for (;;) {
    if (text === '.' || text === '..') return true;
    const next = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === text) return false;
    text = next;
  }
}

const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;
const mustRefuse = (v: string) => v === '' || becomesDots(v) || !wellFormed(v);

function throwsUsage(fn: () => unknown): boolean {
  try {
    fn();
    return false;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return true;
  }
}

describe('apiPath', () => {
  it('builds the path the template names, each variable one encoded segment', () => {
    expect(apiPath`/crm/accounts/${'acc 1'}/memberships/${'m/2'}`).toBe('/crm/accounts/acc%201/memberships/m%2F2');
    expect(apiPath`/crm/deals/${'d?x#y%z\\'}`).toBe('/crm/deals/d%3Fx%23y%25z%5C');
  });

  it('refuses a variable that is empty, "." or ".." in any encoding, or not valid Unicode', () => {
    for (const bad of ['', '.', '..', '%2e', '%2E%2e', '.%2e', '%2e.', '%252E', '%25252e%2e', '%2%65', '\ud800']) {
      expect(() => apiPath`/crm/deals/${bad}`, JSON.stringify(bad)).toThrow(UsageError);
    }
    for (const fine of ['...', '.a', 'a.', '%2e%2e%2e', '%2ex', '-']) expect(apiPath`/crm/deals/${fine}`).toMatch(/^\/crm\/deals\/[^/]+$/);
  });

  it('refuses, as a programming error, a variable that is not a whole segment', () => {
    expect(() => apiPath`/crm/deals/x${'a'}`).toThrow(/not a whole segment/);
    expect(() => apiPath`/crm/deals/${'a'}.json`).toThrow(/not a whole segment/);
  });

  it('property: any variables give exactly the template\'s segments, decoding back to the variables, kept as they are by URL resolution', () => {
    const base = new URL('https://tenant.example.com/prefix');
    fc.assert(
      fc.property(variable, variable, (a, b) => {
        let path: string;
        if (throwsUsage(() => (path = apiPath`/crm/accounts/${a}/memberships/${b}`))) {
          expect(mustRefuse(a) || mustRefuse(b)).toBe(true);
          return;
        }
        expect(mustRefuse(a) || mustRefuse(b)).toBe(false);
        const segments = path!.split('/');
        expect(segments).toHaveLength(6);
        expect(segments.slice(0, 3)).toEqual(['', 'crm', 'accounts']);
        expect(segments[4]).toBe('memberships');
        expect(decodeURIComponent(segments[3]!)).toBe(a);
        expect(decodeURIComponent(segments[5]!)).toBe(b);
        // No resolution, no re-encoding: the URL carries the path as built.
        expect(new URL(path!, 'https://tenant.example.com/').pathname).toBe(path!);
        const url = buildUrl(base, path!, {});
        expect(url.pathname).toBe(`/prefix/api/v1${path!}`);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        expect(url.host).toBe('tenant.example.com');
      }),
      { numRuns: RUNS },
    );
  });

  it('property: a Uid that checkUid accepts always builds a one-segment path', () => {
    fc.assert(
      fc.property(variable, (v) => {
        let uid: string;
        if (throwsUsage(() => (uid = checkUid('<uid>', v)))) return;
        expect(mustRefuse(v)).toBe(false);
        const segment = pathSegment(uid!);
        expect(decodeURIComponent(segment)).toBe(v);
        expect(buildUrl(new URL('https://t.example.com'), apiPath`/crm/deals/${uid!}`, {}).pathname).toBe(`/api/v1/crm/deals/${segment}`);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('buildUrl', () => {
  it('refuses a path with a dot segment, the last check before anything is sent', () => {
    for (const path of ['/crm/deals/..', '/crm/./deals', '/crm/deals/%2e%2E']) {
      expect(() => buildUrl(new URL('https://t.example.com'), path, {}), path).toThrow(UsageError);
    }
  });
});

describe('decodeSegment', () => {
  it('decodes the escapes that form UTF-8 and leaves the rest', () => {
    expect(decodeSegment('request%4DagicLink')).toBe('requestMagicLink');
    expect(decodeSegment('caf%C3%A9%zz%')).toBe('café%zz%');
    expect(decodeSegment('%C3')).toBe('%C3');
  });
});
