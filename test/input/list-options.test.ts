// The list options as commander parses them (rendered from their declarations, typed as
// an invocation types them), and their checks (exit 2 naming the flag).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { listOptions, parseListOptions, type RawListOptions } from '../../src/input/list-options.js';
import { UsageError } from '../../src/errors.js';
import { defineCommand } from '../../src/command.js';
import { addDeclaredOption } from '../../src/program.js';
import { argumentsOf, invocationOf } from '../../src/invocation.js';

const list = defineCommand({ path: ['list'], summary: 'a list', examples: ['bo list'], options: listOptions(), run: async () => {} });

function parse(argv: string[]) {
  const cmd = new Command('list').exitOverride().allowExcessArguments(false);
  for (const declared of listOptions()) addDeclaredOption(cmd, declared);
  cmd.parse(argv, { from: 'user' });
  return parseListOptions(argumentsOf(list, invocationOf(list, cmd, [])).options as RawListOptions);
}

function usage(argv: string[]): UsageError {
  try {
    parse(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('defaults and paging', () => {
  it('prints at most 100 by default, in pages of 100', () => {
    expect(parse([])).toEqual({ query: {}, max: 100, pageSize: 100 });
  });

  it('--limit n asks for no more than needed, pages of at most 100', () => {
    expect(parse(['--limit', '5'])).toMatchObject({ max: 5, pageSize: 5 });
    expect(parse(['--limit', '250'])).toMatchObject({ max: 250, pageSize: 100 });
  });

  it('--all has no maximum; --page-size sets the page size', () => {
    expect(parse(['--all'])).toMatchObject({ max: Infinity, pageSize: 100 });
    expect(parse(['--all', '--page-size', '25'])).toMatchObject({ max: Infinity, pageSize: 25 });
  });

  it('--page fetches one raw page', () => {
    expect(parse(['--page', '0'])).toEqual({ query: {}, max: 100, pageSize: 100, page: 0 });
    expect(parse(['--page', '3', '--page-size', '50'])).toMatchObject({ page: 3, pageSize: 50 });
  });
});

describe('query', () => {
  it('--fields, --filter (repeatable, same name twice repeats the key) and --order-by', () => {
    const opts = parse([
      '--fields', 'Name, Plan.Name',
      '--filter', 'AccountStage=2',
      '--filter', 'IsDemo=false',
      '--filter', 'AccountStage=3',
      '--filter', 'Name=a=b',
      '--filter', 'ClientIdentifier=',
      '--order-by', 'Name DESC',
    ]);
    expect(opts.query).toEqual({
      fields: 'Name,Plan.Name',
      AccountStage: ['2', '3'],
      IsDemo: 'false',
      Name: 'a=b',
      ClientIdentifier: '',
      orderBy: 'Name desc',
    });
  });

  it('--order-by "Property asc" and "Property" both sort ascending (D14)', () => {
    expect(parse(['--order-by', 'Created asc']).query).toEqual({ orderBy: 'Created' });
    expect(parse(['--order-by', 'Created']).query).toEqual({ orderBy: 'Created' });
  });
});

describe('usage errors name the flag (exit 2)', () => {
  it.each([
    [['--limit', '0'], '--limit must be a positive integer, not "0"'],
    [['--limit', '-3'], '--limit must be a positive integer, not "-3"'],
    [['--limit', '1.5'], '--limit must be a positive integer, not "1.5"'],
    [['--limit', 'ten'], '--limit must be a positive integer, not "ten"'],
    [['--page', '-1'], '--page must be a non-negative integer, not "-1"'],
    [['--page-size', '0'], '--page-size must be an integer from 1 to 100, not "0"'],
    [['--page-size', '101'], '--page-size must be an integer from 1 to 100, not "101"'],
    [['--page', '1', '--all'], '--page cannot be combined with --all'],
    [['--page', '1', '--limit', '5'], '--page cannot be combined with --limit (use --page-size)'],
    [['--all', '--limit', '5'], '--limit cannot be combined with --all'],
    [['--filter', 'AccountStage'], '--filter must be Property=value with a property name of letters, digits, dots or underscores, not "AccountStage"'],
    [['--filter', '=2'], '--filter must be Property=value with a property name of letters, digits, dots or underscores, not "=2"'],
    [['--filter', 'Account Stage=2'], '--filter must be Property=value with a property name of letters, digits, dots or underscores, not "Account Stage=2"'],
    [['--filter', 'limit=5'], '--filter cannot set "limit"; use --limit or --page-size'],
    [['--filter', 'orderBy=Name'], '--filter cannot set "orderBy"; use --order-by'],
    [['--order-by', 'Name sideways'], '--order-by must be Property, "Property asc" or "Property desc", not "Name sideways"'],
    [['--order-by', ''], '--order-by must be Property, "Property asc" or "Property desc", not ""'],
    [['--fields', 'Name,,Plan'], '--fields must be comma-separated property paths (letters, digits, _, . and *), not "Name,,Plan"'],
  ])('%j', (argv, message) => {
    const err = usage(argv);
    expect(err.message).toBe(message);
    expect(err.exitCode).toBe(2);
  });
});
