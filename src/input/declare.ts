// What a verb declares of its options and operands: data, in one vocabulary that a
// mutation's fields (mutation/field.ts) are a flavour of. From it are rendered the
// commander options (program.ts), and through them help, completions and man pages; `bo
// mcp`'s input schemas (mcp/schema.ts); and the types `run` receives (OptionValues,
// OperandValues): no verb writes an options type by hand. A help text is written in words
// that fit both the command line and a tool: the flag syntax is added by the rendering.

/** The kinds of value an option or operand takes, and what each reaches `run` as. */
export interface ValueTypes {
  /** A switch: given or not. */
  switch: boolean;
  /** Text as typed. */
  text: string;
  /** A Uid of some resource (checked by the verb; a tool's schema gives the pattern). */
  uid: string;
  /** A date or date-time as typed (the verb reads it). */
  date: string;
  /** A whole number within bounds, checked when parsed (exit 2 naming the flag). */
  integer: number;
  /** One of `choices`. */
  choice: string;
  /** Repeatable: each use adds its text. */
  list: string[];
}

export type ValueKind = keyof ValueTypes;

export interface OptionDeclaration<K extends ValueKind = ValueKind> {
  kind: K;
  /** As help shows it: '--q <text>', '--fields [paths]', '-X, --method <method>', '--no-auth'. */
  flags: string;
  /** What it does, in words for a person or an agent: no `--`, no exit codes. */
  help: string;
  /** The verb needs it (commander's required option). */
  required?: boolean;
  /** The value when not given (help states a default in words, not from this). */
  default?: ValueTypes[K];
  /** integer: the bounds, inclusive. */
  minimum?: number;
  maximum?: number;
  /**
   * integer: what the value must be, in the error for one out of bounds or not a whole
   * number (`--page-size must be an integer from 1 to 100, not "0"`); default from the bounds.
   */
  must?: string;
  /** choice: the values it takes. */
  choices?: readonly string[];
  /** choice: any case is accepted (the verb reads it). */
  anyCase?: boolean;
  /** Options (their attribute names) that cannot be given with this one. */
  conflicts?: readonly string[];
  /** A switch with a `--no-x` spelling too: its help. */
  negation?: string;
}

/** A positional argument: `<name>` required, `[name]` optional, `<name...>` variadic. */
export interface OperandDeclaration<K extends 'text' | 'uid' | 'choice' = 'text' | 'uid' | 'choice'> {
  kind: K;
  name: `<${string}>` | `[${string}]`;
  help: string;
  choices?: readonly string[];
}

/** The long flag of a flags string: '-X, --method <method>' → '--method' (else its first word). */
export function longFlag(flags: string): string {
  const words = flags.split(/[ ,|]+/);
  return words.find((w) => w.startsWith('--')) ?? words[0]!;
}

/** `--page-size <n>` → pageSize; `--no-auth` → auth (commander's attribute name). */
export function attributeName(flags: string): string {
  return longFlag(flags).replace(/^--?(no-)?/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The operand's name without its brackets or dots: `<accountUid>` → accountUid. */
export function operandName(name: string): string {
  return name.replace(/^[<[]|\.\.\.|[>\]]$/g, '').replace(/\.\.\.$/, '');
}

type Extra<K extends ValueKind> = Omit<OptionDeclaration<K>, 'kind' | 'flags' | 'help' | 'minimum' | 'maximum' | 'choices'>;

/** A declaration as written: its flags and extras kept literal, so `run`'s types can be read from them. */
type Declared<K extends ValueKind, F extends string, E> = { kind: K; flags: F; help: string } & E;

function declare<K extends ValueKind>(kind: K) {
  return <const F extends string, const E extends Extra<K> = {}>(flags: F, help: string, extra?: E): Declared<K, F, E> =>
    ({ kind, flags, help, ...extra }) as Declared<K, F, E>;
}

/** The vocabulary a definition's `options` is written in. */
export const option = {
  switch: declare('switch'),
  text: declare('text'),
  uid: declare('uid'),
  date: declare('date'),
  list: declare('list'),
  integer: <const F extends string, const E extends Extra<'integer'> = {}>(flags: F, help: string, minimum: number, maximum: number, extra?: E) =>
    ({ kind: 'integer', flags, help, minimum, maximum, ...extra }) as Declared<'integer', F, E & { minimum: number; maximum: number }>,
  choice: <const F extends string, const C extends readonly string[], const E extends Extra<'choice'> = {}>(flags: F, help: string, choices: C, extra?: E) =>
    ({ kind: 'choice', flags, help, choices, ...extra }) as Declared<'choice', F, E & { choices: C }>,
};

export const operand = {
  text: <const N extends OperandDeclaration['name']>(name: N, help: string) => ({ kind: 'text', name, help }) as const,
  uid: <const N extends OperandDeclaration['name']>(name: N, help: string) => ({ kind: 'uid', name, help }) as const,
  choice: <const N extends OperandDeclaration['name'], const C extends readonly string[]>(name: N, help: string, choices: C) => ({ kind: 'choice', name, help, choices }) as const,
};

/** A `--no-x` declared alone (bo api's --no-auth): its value is true unless it is given. */
export function isNegationOnly(declared: OptionDeclaration): boolean {
  return /^--no-/.test(declared.flags);
}

/** A definition's options: its `options`, or what its function of every definition gives. */
export function optionsOf(def: { options?: readonly OptionDeclaration[] | ((all: readonly any[]) => readonly OptionDeclaration[]) }, all: readonly unknown[]): readonly OptionDeclaration[] {
  return typeof def.options === 'function' ? def.options(all) : (def.options ?? []);
}

// ---- Types `run` receives, inferred from the declarations ----

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
/** The long flag of a flags string: '-X, --method <m>' → 'method'; '--no-auth' → 'auth'. */
type LongName<F extends string> = F extends `${string}--${infer Rest}`
  ? Rest extends `no-${infer N}`
    ? FirstWord<N>
    : FirstWord<Rest>
  : F extends `-${infer S}`
    ? FirstWord<S>
    : never;
type FirstWord<S extends string> = S extends `${infer W} ${string}` ? W : S;

type ValueOf<D> = D extends { kind: 'choice'; choices: readonly (infer C extends string)[] }
  ? C
  : D extends { kind: infer K extends ValueKind }
    ? ValueTypes[K]
    : never;

/** The options `run` receives: each declared option by attribute name, required ones always there. */
export type OptionValues<O extends readonly OptionDeclaration[]> = {
  [D in O[number] as D extends { required: true } ? Camel<LongName<D['flags']>> : never]: ValueOf<D>;
} & {
  [D in O[number] as D extends { required: true } ? never : Camel<LongName<D['flags']>>]?: ValueOf<D>;
};

/** What one operand reaches `run` as: `[x]` maybe, `<x...>` an array, a choice one of its choices. */
export type OperandValue<D> = D extends { name: `${string}...${string}` }
  ? string[]
  : D extends { name: `[${string}` }
    ? (D extends { choices: readonly (infer C extends string)[] } ? C : string) | undefined
    : D extends { choices: readonly (infer C extends string)[] }
      ? C
      : string;

/** The operands `run` receives, by position. */
export type OperandValues<O extends readonly OperandDeclaration[]> = { -readonly [K in keyof O]: OperandValue<O[K]> };
