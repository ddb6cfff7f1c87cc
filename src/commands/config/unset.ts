// `bo config unset <key>`: back to the default. The profile itself stays.
import { defineCommand } from '../../command.js';

export default defineCommand({
  path: ['config', 'unset'],
  summary: 'Remove one setting of the current profile',
  description:
    'Remove base-url, api-key-scheme or timeout from the current profile; an unset key falls back to its default ' +
    '(api-key-scheme bo, timeout 30; no base-url).',
  examples: ['bo config unset timeout', 'bo -p acme config unset api-key-scheme'],
  configure: (cmd) => cmd.argument('<key>', 'base-url, api-key-scheme or timeout'),
  async run(ctx, [key]) {
    const { assertSettingKey } = await import('../../config/settings.js');
    const { loadConfig, saveConfig, currentProfileName } = await import('../../config/config.js');
    const { say } = await import('../../output/print.js');
    const name = assertSettingKey(key as string);
    const cfg = loadConfig(ctx.io.env);
    const profile = currentProfileName(ctx.globals, cfg);
    const settings = cfg.profiles[profile];
    if (!settings || settings[name] === undefined) {
      say(ctx, `${name} was not set for profile "${profile}".`);
      return;
    }
    delete settings[name];
    saveConfig(ctx.io.env, cfg);
    say(ctx, `Unset ${name} for profile "${profile}".`);
  },
});
