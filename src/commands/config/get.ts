// `bo config get <key>`: one setting of the current profile, as it takes effect
// (the stored value, else the default), so scripts can read it back.
import { defineCommand } from '../../command.js';
import { SETTING_KEYS_TEXT, assertSettingKey, SETTING_DEFAULTS } from '../../config/settings.js';
import { printValue, say } from '../../output/print.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['config', 'get'],
  summary: 'Print one setting of the current profile',
  description:
    `Print a setting of the current profile: ${SETTING_KEYS_TEXT}. ` +
    'An unset key prints its default (api-key-scheme bo, timeout 30, max-response-mb 32, protected false, journal on); an unset base-url or ca-file prints nothing.',
  examples: ['bo config get base-url', 'bo -p acme config get api-key-scheme'],
  operands: [operand.text('<key>', SETTING_KEYS_TEXT)],
  async run(ctx, [key]) {
    const name = assertSettingKey(key);
    const { name: profile, settings } = await ctx.profile();
    const value = settings[name] ?? SETTING_DEFAULTS[name];
    if (value === undefined) {
      if (ctx.globals.json) await printValue(ctx, null);
      say(ctx, `${name} is not set for profile "${profile}"`);
      return;
    }
    await printValue(ctx, ctx.globals.json ? value : String(value));
  },
});
