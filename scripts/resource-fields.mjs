// Generates src/api/resource-fields.ts from the API reference's resource tables
// (SERVICE-API.md §2): each resource's fields with their types, and the resource a
// nested field holds. The reference mixes tables and prose lists; the rules below read
// both as the document writes them:
//   - a table row is `names | type`; `A1 ... A10` stands for A1 to A10;
//   - in prose, `Name (type)` types one name; a plural type (`strings`, `objects`…) or
//     `date-time` types every untyped name before it back to the last typed one (a `;`
//     ends such a group); `(… unless stated)` types every name of its sentence left
//     untyped; a parenthesis that names no type (`(OAuth)`) is a note;
//   - `Label: …` and `Label (ApiName): …` start the fields of a sub-resource (Address,
//     Drip campaign message, Redemption); a sentence whose first item names no field
//     (`Other maxima listed …`, `Gateway-mirrored records …`) is not a field list;
//   - `address object`, `array of membership`, `(person)` name another resource by its
//     title; an object or array field named as a resource (`Account`, `PersonAccount`,
//     `SubscriptionAddOns`) holds that resource; `object: A, B` and `array of {A, B}`
//     list the fields of an unnamed nested object.
// A name the document gives no type keeps the type '' (shown as "not stated").
//
//   node scripts/resource-fields.mjs path/to/SERVICE-API.md   writes the module
// The reference lives outside this repository, so no build step or test runs this: run it
// by hand after the document changes and commit the module. test/api/resource-fields.unit.test.ts
// checks the committed module's shape, and the reading rules on an excerpt kept in test/.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const OUTPUT = fileURLToPath(new URL('../src/api/resource-fields.ts', import.meta.url));

const pascal = (title) =>
  title
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** Splits at `seps` outside parentheses and braces. */
function splitTop(text, seps) {
  const parts = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (depth === 0 && seps.includes(c)) {
      parts.push({ text: text.slice(from, i), sep: c });
      from = i + 1;
    }
  }
  parts.push({ text: text.slice(from), sep: '' });
  return parts;
}

/** Sentences: a period followed by a space and a capital, outside parentheses. */
function sentences(paragraph) {
  const out = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (depth === 0 && c === '.' && (i === paragraph.length - 1 || /\s[A-Z_]/.test(paragraph.slice(i + 1, i + 3)))) {
      out.push(paragraph.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (paragraph.slice(from).trim()) out.push(paragraph.slice(from).trim());
  return out;
}

const NAME = /^[A-Z_][A-Za-z0-9_]*$/;
const SCALARS = { string: 'string', integer: 'integer', boolean: 'boolean', number: 'number', object: 'object', array: 'array' };

/**
 * A type phrase → { type, ref?, plural, nested? }, or undefined when it names no type.
 * `nouns(phrase)` finds a resource by its title.
 */
function typeOf(phrase, nouns) {
  let text = phrase.trim();
  const colon = splitTop(text, ':');
  let nested;
  if (colon.length > 1) {
    nested = colon.slice(1).map((p) => p.text).join(':');
    text = colon[0].text.trim();
  }
  const brace = /^array of \{(.*)\}$/.exec(text);
  if (brace) return { type: 'array', plural: false, nested: brace[1] };
  const head = splitTop(text, ',;')[0].text.trim();
  if (/\bdate-time\b/.test(text) && !/^(array|object)/.test(head)) return { type: 'date-time', plural: true, nested };
  const m = /^(strings|integers|booleans|numbers|objects|arrays|string|integer|boolean|number|object|array)\b(.*)$/.exec(head);
  if (m) {
    const word = m[1];
    const plural = word.endsWith('s');
    const type = SCALARS[plural ? word.slice(0, -1) : word];
    const of = /^ of (.+)$/.exec(m[2]);
    if (type === 'array' && of) {
      const ref = nouns(of[1]);
      if (ref) return { type, ref, plural, nested };
      if (SCALARS[of[1].replace(/s$/, '')]) return { type: `array of ${SCALARS[of[1].replace(/s$/, '')]}`, plural, nested };
      return { type, plural, nested };
    }
    return { type, plural, nested, unlessStated: /unless stated/.test(m[2]) };
  }
  const obj = /^(.+?) object$/.exec(head);
  if (obj && nouns(obj[1])) return { type: 'object', ref: nouns(obj[1]), plural: false, nested };
  const bare = nouns(head);
  if (bare) return { type: 'object', ref: bare, plural: false, nested };
  return undefined;
}

/** One item of a list: `[words] Name [(…)]`, `Name type` or `A1 ... A10`; undefined when it names no field. */
function itemOf(text) {
  let t = text.trim();
  let paren;
  const open = t.indexOf('(');
  if (open >= 0 && t.endsWith(')')) {
    paren = t.slice(open + 1, -1);
    t = t.slice(0, open).trim();
  }
  const range = /^([A-Za-z_]+)(\d+) \.\.\. \1(\d+)$/.exec(t);
  if (range) {
    const names = [];
    for (let i = Number(range[2]); i <= Number(range[3]); i++) names.push(`${range[1]}${i}`);
    return { names, paren };
  }
  const words = t.split(/\s+/);
  let last = words[words.length - 1];
  if (words.length > 1 && SCALARS[last] && NAME.test(words[words.length - 2])) return { names: [words[words.length - 2]], paren: paren ?? last };
  if (!NAME.test(last)) return undefined;
  return { names: [last], paren };
}

/**
 * `UniqueIdentifier (code), Name, IsActive, AmountOff, PercentOff (numbers)`: read as a
 * group, "numbers" would type the coupon's code, name and active flag too; a name is a
 * string and Is… a boolean wherever the document types them.
 */
const CORRECTIONS = [
  ['DiscountCoupon', 'UniqueIdentifier', 'string'],
  ['DiscountCoupon', 'Name', 'string'],
  ['DiscountCoupon', 'IsActive', 'boolean'],
];

export function parseResources(markdown) {
  const start = markdown.indexOf('\n## 2.');
  const end = markdown.indexOf('\n## 3.', start);
  if (start < 0 || end < 0) throw new Error('SERVICE-API.md: section 2 not found');
  const section = markdown.slice(start, end);
  const blocks = section.split(/\n### /).slice(1);

  // Titles first (headings and `Label:` sub-resources), so a field can name any of them.
  const titles = new Map(); // lowercase title → key
  const parsedBlocks = blocks.map((block) => {
    const [heading, ...rest] = block.split('\n');
    const hm = /^(.*?)(?: \((.+)\))?$/.exec(heading.trim());
    const title = hm[1];
    const key = hm[2] && NAME.test(hm[2]) ? hm[2] : pascal(title);
    return { title, key, parts: title.toLowerCase().split(' and '), lines: rest };
  });
  const LABEL = /^([A-Z][A-Za-z -]*?)(?: \(([A-Za-z]+)\))?: (.*)$/s;
  for (const b of parsedBlocks) {
    if (b.parts.length === 1) titles.set(b.title.toLowerCase(), b.key);
    for (const line of b.lines) {
      const lm = LABEL.exec(line.trim());
      if (!lm) continue;
      const label = lm[1].toLowerCase();
      const part = b.parts.find((p) => p === label || p.endsWith(` ${label}`));
      const key = lm[2] ?? pascal(part ?? label);
      titles.set(label, key);
      if (part) titles.set(part, key);
    }
  }
  const nouns = (phrase) => {
    const p = phrase.trim().toLowerCase();
    for (const candidate of [p, p.replace(/s$/, '')]) {
      if (titles.has(candidate)) return titles.get(candidate);
    }
    for (const candidate of [p, p.replace(/s$/, '')]) {
      for (const [title, key] of titles) if (title.endsWith(` ${candidate}`)) return key;
    }
    return undefined;
  };

  const resources = new Map(); // key → Map(name → {type, ref})
  const add = (key, name, field) => {
    if (!resources.has(key)) resources.set(key, new Map());
    resources.get(key).set(name, field);
  };

  /** A prose list (a sentence after any label) into `key`'s fields. */
  const readList = (key, text) => {
    const pending = []; // untyped names of the current group
    const untyped = []; // every untyped name of the sentence
    let fallback;
    const items = splitTop(text, ',;');
    let first = true;
    for (const { text: itemText, sep } of items) {
      const item = itemOf(itemText);
      if (!item) {
        if (first) return;
        continue;
      }
      first = false;
      const t = item.paren === undefined ? undefined : typeOf(item.paren, nouns);
      for (const name of item.names) {
        if (t) {
          add(key, name, { type: t.type, ref: t.ref });
          if (t.nested !== undefined) {
            const inner = `${key}.${name}`;
            add(key, name, { type: t.type, ref: inner });
            if (!resources.has(inner)) resources.set(inner, new Map());
            readList(inner, t.nested);
          }
        } else {
          add(key, name, { type: '', ref: undefined });
          pending.push(name);
          untyped.push(name);
        }
      }
      if (t?.unlessStated) fallback = t.type;
      if (t && (t.plural || item.names.length > 1)) {
        for (const name of pending) add(key, name, { type: t.type, ref: t.ref });
        pending.length = 0;
      } else if (t) pending.length = 0;
      if (sep === ';') pending.length = 0;
    }
    if (fallback) for (const name of untyped) if (resources.get(key).get(name).type === '') add(key, name, { type: fallback, byDefault: true });
  };

  const intro = section.split(/\n### /)[0];
  const base = /All records carry these base fields: ([^.]*)\./.exec(intro);
  if (!base) throw new Error('SERVICE-API.md: the base fields sentence not found');
  readList('*', base[1]);

  for (const b of parsedBlocks) {
    if (b.key === 'CollectionEnvelope' || b.key === 'TokenResponse') continue;
    const paragraphs = [];
    for (const line of b.lines) {
      if (line.startsWith('|')) {
        const cells = line.split('|').slice(1, -1).map((c) => c.trim());
        if (cells[0] === 'Field' || /^-+$/.test(cells[0])) continue;
        const t = typeOf(cells[1], nouns);
        for (const part of splitTop(cells[0], ',')) {
          const item = itemOf(part.text);
          if (item) for (const name of item.names) add(b.key, name, { type: t?.type ?? '', ref: t?.ref });
        }
      } else if (line.trim()) paragraphs.push(line.trim());
    }
    let firstList = true;
    for (const paragraph of paragraphs) {
      for (const sentence of sentences(paragraph)) {
        const lm = LABEL.exec(sentence);
        if (lm) {
          readList(nouns(lm[1]) ?? lm[2] ?? pascal(lm[1]), lm[3]);
        } else if (firstList || resources.has(b.key)) {
          readList(b.key, sentence);
        }
        firstList = false;
      }
    }
  }

  // An object or array named as a resource (Account, PersonAccount, SubscriptionAddOns) holds it.
  const keys = new Set([...resources.keys()].filter((k) => k !== '*' && !k.includes('.')));
  for (const [key, fields] of resources) {
    for (const [name, field] of fields) {
      if (field.ref) continue;
      const named = [name, name.replace(/s$/, '')].find((n) => keys.has(n));
      const holder = field.type === 'object' || field.type === 'array' || (field.type === '' && key.includes('.'));
      if (named && holder) fields.set(name, { type: field.type || (named === name ? 'object' : 'array'), ref: named });
      else if (named === name && (field.type === '' || field.byDefault)) fields.set(name, { type: 'object', ref: named });
    }
  }
  // Where the prose reads two ways, the reading the rest of the document supports.
  for (const [key, name, type] of CORRECTIONS) {
    const field = resources.get(key)?.get(name);
    if (field) field.type = type;
  }
  return resources;
}

/** The module's text. */
export function renderModule(resources) {
  const lines = [
    '// Generated by scripts/resource-fields.mjs from SERVICE-API.md §2 ("Resources and their',
    '// fields"): do not edit; run `node scripts/resource-fields.mjs` after the document changes.',
    '// Each field: [name, type, resource it holds]. Type "" is a field the document gives no',
    '// type; a resource named "Parent.Field" is an unnamed nested object. "*" holds the base',
    '// fields every record carries.',
    '',
    'export type FieldRow = readonly [name: string, type: string, holds?: string];',
    '',
    'export const RESOURCE_FIELDS: Readonly<Record<string, readonly FieldRow[]>> = {',
  ];
  for (const [key, fields] of resources) {
    lines.push(`  ${JSON.stringify(key)}: [`);
    for (const [name, f] of fields) {
      lines.push(`    [${[name, f.type, ...(f.ref ? [f.ref] : [])].map((s) => JSON.stringify(s)).join(', ')}],`);
    }
    lines.push('  ],');
  }
  lines.push('};', '');
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = process.argv[2];
  if (!source) {
    process.stderr.write('usage: node scripts/resource-fields.mjs path/to/SERVICE-API.md\n');
    process.exit(2);
  }
  writeFileSync(OUTPUT, renderModule(parseResources(readFileSync(source, 'utf8'))));
  process.stdout.write(`wrote ${OUTPUT}\n`);
}
