// `bo config list`: every setting of the current profile with the value in effect and
// where it comes from: --json prints {"profile", "settings": [{"name","value","source"}]},
// defaults included, so a script sees what is set and what is not.
import { defineCommand } from '../../command.js';
import { SETTING_KEYS_TEXT, SETTING_KEYS, SETTING_DEFAULTS, baseUrlName, caFileInEffect } from '../../config/settings.js';
import { printRecord } from '../../output/print.js';
import { parseMaxResponseMb } from '../../api/response-cap.js';
import { journalOff } from '../../journal/open.js';

/** The BO_JOURNAL values that decide over the journal setting (journalOff). */
const JOURNAL_WORDS = new Set(['on', 'off', '0', 'false']);

export default defineCommand({
  printsRecords: true,
  path: ['config', 'list'],
  summary: 'Show the settings of the current profile',
  description:
    `Show every setting of the current profile (${SETTING_KEYS_TEXT}) with the value in effect: ` +
    'a flag or environment variable, else the config file, else the default. With --json, each setting as ' +
    '{"name", "value", "source"}, the source being flag, env, config or default.',
  examples: ['bo config list', 'bo -p acme config list --json'],
  async run(ctx) {
    const { name: profile, settings } = await ctx.profile();
    const env = ctx.io.env;
    type Source = 'flag' | 'env' | 'config' | 'default';
    const inEffect = SETTING_KEYS.map((name) => {
      let value: unknown = settings[name];
      let source: Source = 'config';
      if (name === 'base-url' && ctx.globals.baseUrl !== undefined) {
        value = ctx.globals.baseUrl;
        source = baseUrlName(ctx.globals.baseUrl, env) === 'BO_BASE_URL' ? 'env' : 'flag';
      } else if (name === 'timeout' && ctx.globals.timeout !== undefined) {
        value = ctx.globals.timeout;
        source = env.BO_TIMEOUT !== undefined && Number(env.BO_TIMEOUT) === value ? 'env' : 'flag';
      } else if (name === 'max-response-mb' && env.BO_MAX_RESPONSE_MB !== undefined && env.BO_MAX_RESPONSE_MB !== '') {
        value = parseMaxResponseMb(env.BO_MAX_RESPONSE_MB, 'BO_MAX_RESPONSE_MB');
        source = 'env';
      } else if (name === 'journal' && JOURNAL_WORDS.has(env.BO_JOURNAL?.trim().toLowerCase() ?? '')) {
        value = journalOff(env, settings.journal) ? 'off' : 'on';
        source = 'env';
      } else if (name === 'ca-file' && caFileInEffect(env, settings)?.source === 'env') {
        value = caFileInEffect(env, settings)!.path;
        source = 'env';
      } else if (value === undefined) {
        value = SETTING_DEFAULTS[name] ?? null;
        source = 'default';
      }
      return { name, value, source };
    });
    await printRecord(ctx, { profile, settings: inEffect }, [
      ['profile', profile],
      // An unset base URL: said on a terminal (the record view leaves empty values out).
      ...inEffect.map(({ name, value }): [string, unknown] => [name, value ?? (ctx.io.stdoutIsTTY ? 'not set' : '')]),
    ]);
  },
});
