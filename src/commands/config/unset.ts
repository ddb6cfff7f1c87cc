// `bo config unset <key>`: back to the default. The profile itself stays. Saved under
// the config lock (updateConfig); works on a file whose settings are bad, so
// `bo config unset timeout` repairs an out-of-range timeout.
import { defineCommand } from '../../command.js';
import { SETTING_KEYS_TEXT, assertSettingKey } from '../../config/settings.js';
import { updateConfig, currentProfileName } from '../../config/config.js';
import { say } from '../../output/print.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['config', 'unset'],
  summary: 'Remove one setting of the current profile',
  description:
    `Remove ${SETTING_KEYS_TEXT} from the current profile; an unset key falls back to its default ` +
    '(api-key-scheme bo, timeout 30, max-response-mb 32, protected false, journal on; no base-url, no ca-file).',
  examples: ['bo config unset timeout', 'bo -p acme config unset api-key-scheme'],
  operands: [operand.text('<key>', SETTING_KEYS_TEXT)],
  async run(ctx, [key]) {
    const name = assertSettingKey(key);
    const { profile, was } = updateConfig(ctx.io.env, (cfg) => {
      const current = currentProfileName(ctx.globals, cfg);
      const settings = cfg.profiles[current];
      const set = settings?.[name] !== undefined;
      if (set) delete settings![name];
      return { profile: current, was: set };
    });
    say(ctx, was ? `Unset ${name} for profile "${profile}".` : `${name} was not set for profile "${profile}".`);
  },
});
