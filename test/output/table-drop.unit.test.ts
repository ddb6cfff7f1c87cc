// A terminal too narrow for a list's table leaves out whole columns, in the order the
// list declares (a Uid never, and for coupons the Code never), rather than cutting every
// column to a few characters; one line on stderr names what was left out and --fields.
// A table the user chose with --fields keeps every column.
import { describe, expect, it } from 'vitest';
import { fitWidths, DROP_BELOW } from '../../src/output/table.js';
import { runBo } from '../helpers/run-bo.js';
import { tempConfig } from '../helpers/config-dir.js';
import { join } from 'node:path';

function env() {
  const config = tempConfig();
  return { ...config.env, BO_DATA_DIR: join(config.root, 'data'), LANG: 'C.UTF-8', TZ: 'UTC', NO_COLOR: '1' };
}
const header = (stdout: string) => stdout.split('\n')[1]!.split('│').map((c) => c.trim()).filter(Boolean);

describe('a table narrower than its columns', () => {
  it('bo coupons list at 60 columns: Uid and Code whole, no column cut below 8, the rest named', async () => {
    const r = await runBo(['--sandbox', 'coupons', 'list'], { env: env(), stdoutIsTTY: true, columns: 60 });
    expect(r.code).toBe(0);
    const shown = header(r.stdout);
    expect(shown.slice(0, 2)).toEqual(['Uid', 'Code']);
    expect(r.stdout).toContain('coupon_h390aljpd6');
    expect(r.stdout).toContain('WELCOME10');
    for (const line of r.stdout.split('\n').filter((l) => l.startsWith('│'))) {
      for (const cell of line.split('│').slice(1, -1)) expect(cell.length - 2).toBeGreaterThanOrEqual(Math.min(DROP_BELOW, 4));
    }
    expect(r.stdout.split('\n').every((l) => [...l].length <= 60)).toBe(true);
    const left = ['Name', 'Discount', 'Active', 'Redeemed', 'Redeem by'].filter((h) => !shown.some((s) => s.startsWith(h)));
    expect(left.length).toBeGreaterThan(0);
    expect(r.stderr).toBe(`${left.join(', ')} left out to fit the terminal; widen it, or choose the columns with --fields\n`);
  });

  it('drops in the declared order: Redeemed first, then Active', async () => {
    const wide = await runBo(['--sandbox', 'coupons', 'list'], { env: env(), stdoutIsTTY: true, columns: 200 });
    expect(wide.stderr).toBe('');
    expect(header(wide.stdout)).toEqual(['Uid', 'Code', 'Name', 'Discount', 'Active', 'Redeemed', expect.stringMatching(/^Redeem by/)]);
    const narrower = await runBo(['--sandbox', 'coupons', 'list'], { env: env(), stdoutIsTTY: true, columns: 80 });
    expect(narrower.stderr).toMatch(/^Active, Redeemed left out|^Redeemed left out/);
  });

  it('keeps every column the user chose with --fields, and piped output whole', async () => {
    const chosen = await runBo(['--sandbox', 'coupons', 'list', '--fields', 'UniqueIdentifier,Name,IsActive,TimesRedeemed'], { env: env(), stdoutIsTTY: true, columns: 40 });
    expect(chosen.stderr).toBe('');
    expect(header(chosen.stdout).length).toBe(5);
    const piped = await runBo(['--sandbox', 'coupons', 'list'], { env: env(), columns: 40 });
    expect(piped.stderr).toBe('');
    expect(piped.stdout.split('\n')[0]!.split('\t').length).toBe(7);
  });

  it('fitWidths alone still cuts the widest text column first, never the fixed one', () => {
    const widths = fitWidths([17, 9, 20], [true, false, false], 40);
    expect(widths[0]).toBe(17);
    expect(widths.reduce((a, b) => a + b, 0)).toBe(40 - (3 * 3 + 1));
    expect(Math.abs(widths[1]! - widths[2]!)).toBeLessThanOrEqual(1);
  });
});
