// Generated requests for the sandbox fuzz suite: a route of the sandbox (its own method
// and path, parameters filled with seeded Uids of the right kind or mangled segments) or
// a made-up path, with query strings, content types, Authorization headers and bodies
// of every shape, hostile values included. `__REAL__` and `__REAL:<param>__` stand for
// seeded Uids, filled in when the request is sent.
import fc from 'fast-check';
import { adminRoutes } from '../../src/sandbox/routes/admin.js';
import { billingRoutes } from '../../src/sandbox/routes/billing.js';
import { crmRoutes } from '../../src/sandbox/routes/crm.js';
import { emailRoutes } from '../../src/sandbox/routes/email.js';
import { supportRoutes } from '../../src/sandbox/routes/support.js';
import { tokenRoutes } from '../../src/sandbox/routes/tokens.js';

const ROUTES = [...tokenRoutes, ...crmRoutes, ...billingRoutes, ...emailRoutes, ...supportRoutes, ...adminRoutes]
  // Every route, reset and clock included (the suite sends those two rarely: they replace or shift the whole state).
  .map((r) => ({ method: r.method, pattern: r.pattern }));

const FIELDS = ['Name', 'Email', 'IsActive', 'Status', 'ExpirationDate', 'Quantity', 'StartDate', 'EndDate', 'Amount', 'Currency', 'Body', 'Subject',
  'Title', 'Notes', 'Tags', 'AccountUid', 'PlanUid', 'PersonUid', 'DueDate', 'Days', 'username', 'password', 'code', 'mechanism', 'challenge_token',
  'enrollment_token', 'recovery_code', 'advanceSeconds', 'Uid', 'FirstName', 'LastName', 'Price', 'MonthlyRate', 'Reason', 'Comment', '__proto__', 'constructor',
  'ToDate', 'CancelationReason', 'SubmittedDateTime', 'IsPlanUpgradeRequired', 'NewRequiredQuantity', 'Role', 'IsPrimary', 'Account', 'PaymentToken',
  'LastFourDigits', 'Person', 'Description', 'RequiresDoubleOptIn', 'IsInternal'];

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '\u009b31m', 'null', '-1', '1e309', 'NaN', '9999-99-99', '0000-00-00T00:00:00Z', '2024-02-30', '../..', '%00', '%', '💥'.repeat(300)),
  fc.nat({ max: 200_000 }).map((n) => 'x'.repeat(n)),
  // Plausible values too, so that handlers get past their first check.
  fc.constantFrom('__REAL__', '__REAL__', 'a@example.com', '2030-01-01', '2030-01-01T00:00:00Z', 'Active', 'USD', 'totp', 'email', 'Monthly', '1', 'true'),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
);
const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e300, -0, 2 ** 53 + 1, 8.64e15 / 1000 + 1),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 5 }),
  ),
})).value;

// Bodies shaped like the API's own writes, with generated values: these get past validation often enough to write.
const shaped = fc.oneof(
  fc.record({ Name: hostileString, Description: fc.option(hostileString), RequiresDoubleOptIn: fc.boolean() }, { requiredKeys: ['Name'] }),
  fc.record({ ToDate: hostileString, ExpirationDate: hostileString }, { requiredKeys: ['ToDate'] }),
  fc.record({ CancelationReason: hostileString, Comment: hostileString, SubmittedDateTime: hostileString }, { requiredKeys: ['CancelationReason'] }),
  fc.record({ IsPlanUpgradeRequired: fc.boolean(), NewRequiredQuantity: fc.integer({ min: -5, max: 1e6 }) }),
  fc.record({ Role: fc.integer({ min: -1, max: 10 }), IsPrimary: fc.boolean() }),
  fc.record({ Account: fc.constant('__REAL__'), PaymentToken: hostileString, LastFourDigits: hostileString }),
  fc.record({ Person: fc.record({ Email: hostileString, FirstName: hostileString }) }),
);
const body = fc.oneof(
  fc.constant(undefined),
  { weight: 3, arbitrary: shaped.map((o) => JSON.stringify(o)) },
  fc.dictionary(fc.constantFrom(...FIELDS), jsonValue, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
  jsonValue.map((v) => JSON.stringify(v) ?? 'null'),
  fc.constantFrom('{', '{"Name":', '[1,2', 'nul', '\u0000\u0001', '{"a":1}{"b":2}', '\ufeff{}', ' '.repeat(10_000), '{"x":"' + 'y'.repeat(1_100_000) + '"}'),
  fc.string({ maxLength: 200 }),
);

// Long, but within Node's 16 KB header limit: past it Node's parser, not the sandbox, refuses.
const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '%2e%2e', '%2F', '%00', '%ff', '%', '%zz', 'A'.repeat(600), '00000000-0000-0000-0000-000000000000', '1e9', '-1', '0'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

const path = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...ROUTES), fc.array(segment, { minLength: 4, maxLength: 4 }), fc.nat(9).map((n) => n < 8)).map(([r, vals, useReal]) => {
      let i = 0;
      return { method: r.method as string, path: r.pattern.replace(/:([A-Za-z]+)|\*/g, (_m, name: string | undefined) => (useReal ? `__REAL:${name ?? 'any'}__` : vals[i++ % vals.length]!)) };
    }) },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }).map((segs) => ({ method: 'GET', path: '/api/v1/' + segs.join('/') })) },
);

const query = fc.array(fc.tuple(fc.constantFrom('limit', 'offset', 'page', 'q', 'status', 'donotlog', 'sort', 'from', 'to', 'fields', 'x'), segment), { maxLength: 4 })
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));

const contentType = fc.constantFrom(undefined, 'application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/json; charset=latin1', '', 'application/problem+json');

const authorization = fc.constantFrom('apiKey', 'apiKey', 'apiKey', 'apiKey', 'apiKey', 'apiKey', 'apiKey', 'apiKey', 'none', 'Bearer x.y.z', 'Bearer ', 'bo :', 'bo a:b', 'Basic Zm9vOmJhcg==', 'bo ' + 'k'.repeat(6000));

const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'PROPFIND');

export const fuzzRequest = fc.record({ target: path, query, otherMethod: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: method }), body, contentType, authorization, forwardedHttp: fc.boolean() });

export type FuzzRequest = typeof fuzzRequest extends fc.Arbitrary<infer T> ? T : never;
