// The one reading of yes/no environment variables (src/env.ts).
import { describe, expect, it } from 'vitest';
import { envFlag } from '../src/env.js';

describe('envFlag', () => {
  it('is on when set to anything but empty, 0 or false (any case)', () => {
    for (const on of ['1', 'true', 'yes', 'TRUE', ' ']) expect(envFlag(on), on).toBe(true);
    for (const off of [undefined, '', '0', 'false', 'False', 'FALSE']) expect(envFlag(off), String(off)).toBe(false);
  });
});
