// `--fields` on every list and get: alone (last, or before another option) it prints the
// resource's fields and types from the API reference (the generated module, checked
// against the document by test/api/resource-fields.unit.test.ts), exit 0, nothing sent; with
// paths the reference does not list, one warning on stderr names them with the nearest
// known ones, and the paths are still sent.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/commands/index.js';
import { RESOURCE_FIELDS, type FieldRow } from '../../src/api/resource-fields.js';
import { testEnv } from '../helpers/test-env.js';
import { runBo } from '../helpers/run-bo.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const commands = await loadCommands();

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const withResource = commands.filter((c) => c.resource !== undefined);

/** What the reference says of a resource's fields: the base fields and its own (an unnamed nested object has no base fields). */
const documented = (resource: string): readonly FieldRow[] => [...(resource.includes('.') ? [] : RESOURCE_FIELDS['*']!), ...RESOURCE_FIELDS[resource]!];

describe('--fields alone lists the fields', () => {
  it('covers every list and get that takes --fields', async () => {
    const takesFields = [];
    for (const c of commands) {
      const help = await runBo([...c.path, '--help']);
      if (help.stdout.includes('--fields [paths]')) takesFields.push(c.path.join(' '));
    }
    expect(withResource.map((c) => c.path.join(' ')).sort()).toEqual(takesFields.sort());
    expect(withResource.map((c) => c.path.join(' ')).sort()).toEqual(
      ['accounts get', 'accounts list', 'addons list', 'coupons list', 'coupons redemptions', 'lists list', 'subscriptions list'].sort(),
    );
  });

  it.each(withResource.map((c) => [c.path.join(' '), c] as const))('bo %s --fields: the documented fields and types, exit 0, nothing sent', async (_name, def) => {
    const activity = (await sb.activity()).length;
    const r = await runBo([...def.path, '--fields'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    const own = documented(def.resource!);
    // Every field of the resource, in the document's order, with its type or the resource it holds.
    expect(rows.slice(0, own.length).map(([f]) => f)).toEqual(own.map(([name]) => name));
    for (const [name, type, holds] of own) {
      const shown = rows.find(([f]) => f === name)![1];
      if (holds === undefined) expect(shown, name).toBe(type === '' ? 'not stated' : type);
      else expect(shown, name).toBe(holds.includes('.') ? (type === 'array' ? 'array of object' : 'object') : type === 'array' ? `array of ${holds}` : holds);
      // A nested resource's fields follow as dotted paths, one level down.
      if (holds !== undefined) {
        const nested = rows.filter(([f]) => f!.startsWith(`${name}.`)).map(([f]) => f!.slice(name.length + 1));
        expect(nested, name).toEqual(documented(holds).map(([n]) => n));
      }
    }
    expect(await sb.activity()).toHaveLength(activity);
  });

  it('accounts get needs no Uid for it; before another option it is still the list (--json: field and type)', async () => {
    const r = await runBo(['accounts', 'get', '--fields', '--json'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ field: string; type: string }>;
    expect(rows).toContainEqual({ field: 'PrimaryContact', type: 'Person' });
    expect(rows).toContainEqual({ field: 'PrimaryContact.Email', type: 'string' });
    expect(rows).toContainEqual({ field: 'Subscriptions', type: 'array of Subscription' });
    expect(rows).toContainEqual({ field: 'CurrentSubscription.Plan', type: 'Plan' });
    // Without --fields the Uid is still required.
    const missing = await runBo(['accounts', 'get'], { env: testEnv(sb) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'accountUid'/);
  });

  it('on a terminal: a table headed Field and Type', async () => {
    const r = await runBo(['lists', 'list', '--fields', '--no-color'], { env: testEnv(sb), stdoutIsTTY: true, columns: 100 });
    expect(r.code).toBe(0);
    const screen = stripVTControlCharacters(r.stdout);
    expect(screen).toMatch(/Field\s+│?\s*Type/);
    expect(screen).toMatch(/RequiresDoubleOptIn\s+│?\s*boolean/);
    expect(screen).toMatch(/EmailListPerson\s+│?\s*array of EmailListPerson/);
  });
});

describe('--fields with names the reference does not list', () => {
  /** The fields parameter of each request, from the --verbose trace. */
  const fieldsSent = (stderr: string) => [...stderr.matchAll(/^> GET (\S+)/gm)].map((m) => new URL(m[1]!).searchParams.get('fields'));

  it('says so once on stderr, with the nearest known name or none, and still sends them', async () => {
    const r = await runBo(['coupons', 'list', '--fields', 'Nmae,Nope,PercentOff', '--limit', '2', '--verbose'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual(['warning: --fields: DiscountCoupon has no known fields Nmae (nearest: Name), Nope (nothing close); sent as given']);
    expect(fieldsSent(r.stderr)).toEqual(['Nmae,Nope,PercentOff']);
    const one = await runBo(['lists', 'list', '--fields', 'Nmae', '--limit', '1'], { env: testEnv(sb) });
    expect(one.code).toBe(0);
    expect(one.stderr.split('\n')[0]).toBe('warning: --fields: EmailList has no known field Nmae (nearest: Name); sent as given');
  });

  it('checks dotted paths segment by segment; * and known paths pass', async () => {
    // Nope is two edits from Nonce: in a name that short, another word, not a typo.
    const fields = 'Nope,Name,PrimaryContact.Emial,CurrentSubscription.Plan.Name,BillingAddress.*,Name.x,PrimaryContact.*';
    const r = await runBo(['accounts', 'list', '--fields', fields, '--limit', '1', '--verbose'], { env: testEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toEqual([
      'warning: --fields: Account has no known fields Nope (nothing close), PrimaryContact.Emial (nearest: PrimaryContact.Email), Name.x (nothing close); sent as given',
    ]);
    expect(fieldsSent(r.stderr)).toEqual([fields]);
    const known = await runBo(['accounts', 'get', sb.fixtures.accounts[0]!, '--fields', 'Name,CurrentSubscription.Plan.Name'], { env: testEnv(sb) });
    expect(known.code).toBe(0);
    expect(known.stderr).toBe('');
  });

  it('a malformed --fields is still refused (exit 2), with no warning', async () => {
    const r = await runBo(['accounts', 'list', '--fields', 'Na me'], { env: testEnv(sb) });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('warning:');
  });
});
