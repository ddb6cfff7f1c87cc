// `bo config list`: every setting of the current profile with the value in effect.
// --json prints only what is stored, so a script sees what is set and what is not.
import { defineCommand } from '../../command.js';
import { SETTING_KEYS_TEXT, SETTING_KEYS, SETTING_DEFAULTS } from '../../config/settings.js';
import { printRecord } from '../../output/print.js';

export default defineCommand({
  printsRecords: true,
  path: ['config', 'list'],
  summary: 'Show the settings of the current profile',
  description:
    `Show every setting of the current profile (${SETTING_KEYS_TEXT}); unset keys show their default. ` +
    'With --json, the stored settings only.',
  examples: ['bo config list', 'bo -p acme config list --json'],
  async run(ctx) {
    const { name: profile, settings } = await ctx.profile();
    const stored = Object.fromEntries(SETTING_KEYS.filter((k) => settings[k] !== undefined).map((k) => [k, settings[k]]));
    await printRecord(
      ctx,
      { profile, ...stored },
      [
        ['profile', profile],
        ...SETTING_KEYS.map((k): [string, unknown] => [k, settings[k] ?? SETTING_DEFAULTS[k] ?? '']),
      ],
    );
  },
});
