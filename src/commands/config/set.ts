// `bo config set <key> <value>`: validated before anything is written (exit 2 names
// the key), then saved under the config lock (updateConfig), so concurrent runs keep
// each other's changes. Creates the profile when it does not exist yet. Works on a
// file whose other settings are bad, so it can repair them.
import { defineCommand } from '../../command.js';
import { SETTING_KEYS_TEXT, assertSettingKey, parseSetting } from '../../config/settings.js';
import { updateConfig, currentProfileName } from '../../config/config.js';
import { say } from '../../output/print.js';
import { readCaCertificates } from '../../api/ca-file.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['config', 'set'],
  summary: 'Change one setting of the current profile',
  description:
    'Set base-url (https://…, or http:// on localhost), api-key-scheme (the API-key scheme word, default bo), ' +
    'timeout (seconds, 0.1 to 86400), max-response-mb (the most one answer may hold, 1 to 4096, default 32) ' +
    'protected (true: every change on this profile asks first, or needs --yes) ' +
    "or ca-file (a PEM file of certificate authorities, such as a company's, trusted as well as the system's; BO_CA_FILE wins over it) " +
    'or journal (on, the default: every change is written to the journal in the state folder, see bo history; off: none) ' +
    'for the current profile, creating the profile if needed.',
  examples: [
    'bo config set base-url https://acme.example.com',
    'bo -p staging config set api-key-scheme acme',
    'bo config set timeout 60',
    'bo -p production config set protected true',
    { example: 'bo config set ca-file ~/company-ca.pem', needs: "a PEM file of your company's certificate authority" },
    'bo -p scratch config set journal off',
  ],
  operands: [
    operand.text('<key>', SETTING_KEYS_TEXT),
    operand.text('<value>', 'the new value'),
  ],
  async run(ctx, [key, text]) {
    const name = assertSettingKey(key);
    const value = parseSetting(name, text);
    if (name === 'ca-file') {
      // Checked now, not at the next connection: a missing file or one without a certificate is exit 2 here.
      readCaCertificates(value as string, 'ca-file');
    }
    const profile = updateConfig(ctx.io.env, (cfg) => {
      const current = currentProfileName(ctx.globals, cfg);
      const settings: Record<string, unknown> = (cfg.profiles[current] ??= {});
      settings[name] = value;
      return current;
    });
    say(ctx, `Set ${name} to ${value} for profile "${profile}".`);
  },
});
