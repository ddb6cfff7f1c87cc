import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEmail, checkJson, checkText } from '../../src/input/validate.js';
import { UsageError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'bo-input-'));

async function refused(p: Promise<unknown> | (() => unknown)): Promise<UsageError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('accepted');
}

describe('checkEmail', () => {
  it('accepts ordinary addresses', () => {
    for (const ok of ['a@example.com', 'first.last+tag@mail.example.co.uk', 'ünïcode@exämple.de', 'x_y-z@sub-domain.example.org']) {
      expect(checkEmail('--email', ok)).toBe(ok);
    }
    expect(checkEmail('--email', ' a@example.com ')).toBe('a@example.com');
  });

  it('refuses what is not an address, naming the flag', async () => {
    for (const bad of ['', 'a', 'a@', '@example.com', 'a@example', 'a@@example.com', 'a b@example.com', 'a@exa mple.com', 'a@example..com',
      'a@.example.com', 'a@example.com.', '<a@example.com>', 'a\n@example.com', 'a@exam\u0007ple.com', 'a"b@example.com', `${'x'.repeat(65)}@example.com`,
      `a@${'d'.repeat(250)}.com`]) {
      const err = await refused(() => checkEmail('--email', bad));
      expect(err.message, JSON.stringify(bad)).toBe(`--email must be an email address like name@example.com, not ${JSON.stringify(bad)}`);
    }
  });
});

describe('checkText', () => {
  it('returns the text when within the bounds', async () => {
    expect(await checkText('--name', 'Newsletter', { min: 1, max: 100 })).toBe('Newsletter');
    expect(await checkText('--comment', '', {})).toBe('');
  });

  it('counts characters, not bytes or UTF-16 units: an emoji is one', async () => {
    const hundredEmoji = '🎉'.repeat(100);
    expect(hundredEmoji.length).toBe(200);
    expect(await checkText('--name', hundredEmoji, { max: 100 })).toBe(hundredEmoji);
    const err = await refused(checkText('--name', `${hundredEmoji}é`, { max: 100 }));
    expect(err.message).toBe('--name must be at most 100 characters (got 101)');
    expect(await checkText('--name', 'ü'.repeat(100), { max: 100 })).toHaveLength(100);
  });

  it('applies the minimum', async () => {
    expect((await refused(checkText('--name', '', { min: 1, max: 100 }))).message).toBe('--name must not be empty');
    expect((await refused(checkText('--code', 'ab', { min: 3 }))).message).toBe('--code must be at least 3 characters (got 2)');
  });

  it('reads @file, and checks the bounds on the file\'s text', async () => {
    const file = join(dir, 'body.txt');
    writeFileSync(file, 'Hello 👋\nsecond line\n');
    expect(await checkText('--body', `@${file}`, {})).toBe('Hello 👋\nsecond line\n');
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(251));
    expect((await refused(checkText('--name', `@${big}`, { max: 250 }))).message).toBe('--name must be at most 250 characters (got 251)');
  });

  it('refuses a missing, empty or unreadable @file naming the flag (exit 2)', async () => {
    const missing = await refused(checkText('--body', `@${join(dir, 'nope.txt')}`, {}));
    expect(missing.message).toBe(`--body cannot read ${JSON.stringify(join(dir, 'nope.txt'))}: no such file`);
    expect(missing.exitCode).toBe(2);
    const folder = join(dir, 'folder');
    mkdirSync(folder, { recursive: true });
    expect((await refused(checkText('--body', `@${folder}`, {}))).message).toContain('is a directory');
    expect((await refused(checkText('--body', '@', {}))).message).toBe('--body names no file after "@"');
  });

  it('takes @@ as literal text starting with @', async () => {
    expect(await checkText('--name', '@@team', { max: 5 })).toBe('@team');
  });

  it('refuses an @file that is not UTF-8 naming the flag (exit 2), and drops a byte order mark', async () => {
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from('Caf\xe9 cr\xe8me\n', 'latin1'));
    const err = await refused(checkText('--body', `@${latin1}`, {}));
    expect(err.message).toBe(`--body: ${JSON.stringify(latin1)} is not valid UTF-8`);
    expect(err.hint).toMatch(/iconv/);
    expect(err.exitCode).toBe(2);
    const bom = join(dir, 'bom.txt');
    writeFileSync(bom, '\uFEFFCafé');
    expect(await checkText('--name', `@${bom}`, { max: 4 })).toBe('Café');
  });
});

describe('checkJson', () => {
  it('parses inline JSON of any kind', async () => {
    expect(await checkJson('--data', '{"a":1,"b":[true,null]}')).toEqual({ a: 1, b: [true, null] });
    expect(await checkJson('--data', '"text"')).toBe('text');
    expect(await checkJson('--data', '42')).toBe(42);
  });

  it('reads @file (a byte order mark is ignored)', async () => {
    const file = join(dir, 'data.json');
    writeFileSync(file, '\uFEFF{"Region": "EMEA", "Tier": 2}\n');
    expect(await checkJson('--data', `@${file}`)).toEqual({ Region: 'EMEA', Tier: 2 });
  });

  it('refuses malformed JSON and missing files naming the flag', async () => {
    for (const bad of ['', '{', "{'a':1}", '{"a":1,}', 'undefined', 'NaN']) {
      const err = await refused(checkJson('--data', bad));
      expect(err.message, bad).toMatch(/^--data must be valid JSON \(.+\)$/);
      expect(err.message).not.toContain('\n');
    }
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"a": }');
    expect((await refused(checkJson('--data', `@${bad}`))).message).toMatch(/^--data must be valid JSON/);
    expect((await refused(checkJson('--data', `@${join(dir, 'none.json')}`))).message).toContain('--data cannot read');
  });
});
