// Reading JSON bodies: each check names the field and answers 400 validation_failed
// (D6). `undefined` means "absent", which a PUT merge (D18) leaves unchanged.

import { refUid } from './db.js';
import { invalid } from './http-error.js';

export type Body = Record<string, unknown>;

export function objectBody(body: unknown, required = true): Body {
  if (body === undefined && !required) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('body', body === undefined ? 'a JSON object is required' : 'must be a JSON object');
  }
  return body as Body;
}

export function str(b: Body, field: string, opts: { min?: number; max?: number; required?: boolean } = {}): string | null | undefined {
  const v = b[field];
  if (v === undefined || (v === null && !opts.required)) {
    if (opts.required) throw invalid(field, 'is required');
    return v as undefined | null;
  }
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  const length = [...v].length;
  if (opts.min !== undefined && length < opts.min) throw invalid(field, opts.min === 1 ? 'must not be empty' : `must be at least ${opts.min} characters`);
  if (opts.max !== undefined && length > opts.max) throw invalid(field, `must be at most ${opts.max} characters (got ${length})`);
  return v;
}

export function bool(b: Body, field: string): boolean | null | undefined {
  const v = b[field];
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v !== 'boolean') throw invalid(field, 'must be true or false');
  return v;
}

export function int(b: Body, field: string, opts: { min?: number; required?: boolean } = {}): number | null | undefined {
  const v = b[field];
  if (v === undefined || (v === null && !opts.required)) {
    if (opts.required) throw invalid(field, 'is required');
    return v as undefined | null;
  }
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalid(field, 'must be an integer');
  if (opts.min !== undefined && v < opts.min) throw invalid(field, `must be at least ${opts.min}`);
  return v;
}

export function num(b: Body, field: string): number | null | undefined {
  const v = b[field];
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(field, 'must be a number');
  return v;
}

/** An ISO 8601 date-time (or date), normalised to ISO form. */
export function date(b: Body, field: string, required = false): string | null | undefined {
  const v = b[field];
  if (v === undefined || (v === null && !required)) {
    if (required) throw invalid(field, 'is required');
    return v as undefined | null;
  }
  if (typeof v !== 'string' || !/^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(v)) {
    throw invalid(field, 'must be an ISO 8601 date-time');
  }
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw invalid(field, 'must be a valid date-time');
  return new Date(t).toISOString();
}

export function obj(b: Body, field: string): Body | null | undefined {
  const v = b[field];
  if (v === undefined || v === null) return v as undefined | null;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid(field, 'must be an object');
  return v as Body;
}

/** A reference (D29): `{"Uid": …}` or a bare Uid string. */
export function refField(b: Body, field: string, required = false): string | undefined {
  const v = b[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(field, 'is required (a reference {"Uid": "…"})');
    return undefined;
  }
  const uid = refUid(v);
  if (uid === undefined) throw invalid(field, 'must be a reference {"Uid": "…"} or a Uid string');
  return uid;
}

/** Copies the fields that are present (D18 merge), dropping undefined. */
export function present(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
