import { describe, expect, it } from 'vitest';
import { runBo } from './helpers/run-bo.js';

describe('program', () => {
  it('prints help with examples and exit codes', async () => {
    const r = await runBo(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: bo');
    expect(r.stdout).toContain('Examples:');
  });

  it('rejects an unknown command with exit 2', async () => {
    const r = await runBo(['acounts']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'acounts'/);
  });

  it('rejects an unknown global flag with exit 2', async () => {
    const r = await runBo(['--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--frobnicate'");
  });
});
