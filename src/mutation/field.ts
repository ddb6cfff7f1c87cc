// What a mutation verb declares of each of its fields, once: the flag as help shows it,
// the field's name in the API, the flag's help text and its parser. From that one
// declaration come the commander option, the typed values the verb's request receives,
// and the reading of each batch record (fields.ts, prepare.ts). Light: a verb file
// imports it at the top.

import type * as validate from '../input/validate.js';
import type { OptionDeclaration } from '../input/declare.js';

/** The checks a field's parser uses (src/input/validate.ts), handed over when it runs. */
export type Validators = typeof validate;

/** A parser: the label (the flag, or a record's line and key), the text, the checks. */
export type Parse<T> = (label: string, text: string, v: Validators) => T | Promise<T>;

/**
 * One field of a mutation verb. The flags and the records of a `-` batch both go
 * through it (fields.ts): a record may name the field as the API does ("DueDate") or as
 * the flag without dashes ("due").
 */
export interface MutationField<Api extends string = string, T = unknown, Required extends boolean = boolean> extends OptionDeclaration<'text' | 'switch' | 'uid'> {
  /** The flag, e.g. '--due'. */
  flag: string;
  /** The option as help shows it (`flags`), e.g. '--due <date>' (a switch: the flag alone). */
  flags: string;
  /** The API's name of the field, e.g. 'DueDate': the key of its value in the values. */
  api: Api;
  /**
   * 'text' (the default): a string, or a number or boolean as its JSON text, in a record;
   * 'reference': a Uid, or {"Uid": …} in a record; 'json': any JSON value; 'boolean': a
   * flag without a value, true or false in a record; 'toggle': `--x` and `--no-x`.
   */
  form: 'text' | 'reference' | 'json' | 'boolean' | 'toggle';
  /** The flag's own check; not for booleans and toggles. */
  parse?: Parse<T>;
  /** A switch that sets the API's field to false (--clear ↔ IsPlanUpgradeRequired). */
  negates?: boolean;
  /** The command needs it (commander's required option). */
  required: Required;
  /** A toggle's `--no-x`: its help. */
  negation?: string;
  /** Its value is a secret: never shown, logged or journaled (a payment token). */
  secret?: boolean;
}

/** Parsed field values by API name (MutationField.api). */
export type FieldValues = Record<string, unknown>;

/** The values a verb's fields give, typed: required ones always there, the others maybe. */
export type ValuesOf<F extends readonly MutationField[]> = {
  [K in F[number] as K['required'] extends true ? K['api'] : never]: K extends MutationField<string, infer T> ? Awaited<T> : never;
} & {
  [K in F[number] as K['required'] extends true ? never : K['api']]?: K extends MutationField<string, infer T> ? Awaited<T> : never;
};

interface Extra {
  required?: boolean;
  secret?: boolean;
}

type Made<Api extends string, T, E extends Extra> = MutationField<Api, T, E['required'] extends true ? true : false>;

function make<Api extends string, T, E extends Extra>(
  option: string,
  api: Api,
  help: string,
  form: MutationField['form'],
  parse: Parse<T> | undefined,
  extra: E,
): Made<Api, T, E> {
  const flag = option.split(' ')[0]!;
  return {
    kind: form === 'boolean' ? 'switch' : form === 'reference' ? 'uid' : 'text',
    flag,
    flags: option,
    help,
    api,
    form,
    ...(parse ? { parse } : {}),
    required: (extra.required === true) as E['required'] extends true ? true : false,
    ...(extra.secret ? { secret: true } : {}),
  };
}

/** The kinds of field, each with the check its flag and a record's value get. */
export const field = {
  /** Text of `min` (default 1) to `max` characters; `@file` reads a file. */
  text<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, extra: E & { min?: number; max?: number } = {} as E) {
    const bounds = { min: extra.min ?? 1, ...(extra.max === undefined ? {} : { max: extra.max }) };
    return make<Api, string, E>(option, api, help, 'text', (l, t, v) => v.checkText(l, t, bounds), extra);
  },
  /** A value of the verb's own kind, checked by `parse`. */
  checked<Api extends string, T, const E extends Extra = Extra>(option: string, api: Api, help: string, parse: Parse<T>, extra: E = {} as E) {
    return make<Api, T, E>(option, api, help, 'text', parse, extra);
  },
  /** A decimal number. */
  number<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, extra: E = {} as E) {
    return make<Api, number, E>(option, api, help, 'text', (l, t, v) => v.checkNumber(l, t), extra);
  },
  /** A whole number from `min` to `max`. */
  integer<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, min: number, max: number, extra: E = {} as E) {
    return make<Api, number, E>(option, api, help, 'text', (l, t, v) => v.checkInteger(l, t, min, max), extra);
  },
  /** A date or a date-time (a bare date: 23:59:59 UTC that day), sent as ISO 8601. */
  date<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, extra: E = {} as E) {
    return make<Api, string, E>(option, api, help, 'text', (l, t, v) => v.checkDate(l, t), extra);
  },
  /** An email address. */
  email<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, extra: E = {} as E) {
    return make<Api, string, E>(option, api, help, 'text', (l, t, v) => v.checkEmail(l, t), extra);
  },
  /** A reference to another record, sent as {"Uid": …} (D29). */
  reference<Api extends string, const E extends Extra = Extra>(option: string, api: Api, help: string, extra: E = {} as E) {
    return make<Api, { Uid: string }, E>(option, api, help, 'reference', (l, t, v) => ({ Uid: v.checkUid(l, t) }), extra);
  },
  /** Any JSON value, checked by `parse` (`@file` reads a file). */
  json<Api extends string, T, const E extends Extra = Extra>(option: string, api: Api, help: string, parse: Parse<T>, extra: E = {} as E) {
    return make<Api, T, E>(option, api, help, 'json', parse, extra);
  },
  /** A switch: true when given (or, with `negates`, false). */
  boolean<Api extends string>(option: string, api: Api, help: string, options: { negates?: boolean } = {}) {
    return { ...make<Api, boolean, Extra>(option, api, help, 'boolean', undefined, {}), ...(options.negates ? { negates: true } : {}) };
  },
  /** `--x` sets the field true, `--no-x` false; neither leaves it as it is. */
  toggle<Api extends string>(option: string, api: Api, help: string, offHelp: string) {
    return { ...make<Api, boolean, Extra>(option, api, help, 'toggle', undefined, {}), kind: 'switch' as const, negation: offHelp };
  },
};
