// `bo config set <key> <value>`: validated before anything is written (exit 2 names
// the key), then saved atomically. Creates the profile when it does not exist yet.
import { defineCommand } from '../../command.js';

export default defineCommand({
  path: ['config', 'set'],
  summary: 'Change one setting of the current profile',
  description:
    'Set base-url (https://…, or http:// on localhost), api-key-scheme (the API-key scheme word, default bo), ' +
    'timeout (seconds) or protected (true: every change on this profile asks first, or needs --yes) ' +
    'for the current profile, creating the profile if needed.',
  examples: [
    'bo config set base-url https://acme.example.com',
    'bo -p staging config set api-key-scheme acme',
    'bo config set timeout 60',
    'bo -p production config set protected true',
  ],
  configure: (cmd) => cmd.argument('<key>', 'base-url, api-key-scheme, timeout or protected').argument('<value>', 'the new value'),
  async run(ctx, [key, text]) {
    const { assertSettingKey, parseSetting } = await import('../../config/settings.js');
    const { loadConfig, saveConfig, currentProfileName } = await import('../../config/config.js');
    const { say } = await import('../../output/print.js');
    const name = assertSettingKey(key as string);
    const value = parseSetting(name, text as string);
    const cfg = loadConfig(ctx.io.env);
    const profile = currentProfileName(ctx.globals, cfg);
    const settings: Record<string, unknown> = (cfg.profiles[profile] ??= {});
    settings[name] = value;
    saveConfig(ctx.io.env, cfg);
    say(ctx, `Set ${name} to ${value} for profile "${profile}".`);
  },
});
