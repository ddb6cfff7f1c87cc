// `bo profiles remove <name>`: its settings and its stored credentials (keychain and
// file). Credentials go first: if the keychain refuses, the profile is kept so the
// command can be run again. A profile that records no stored credential never asks
// the keychain, so it can be removed on a machine without one.
import { defineCommand } from '../../command.js';
import { parseProfileName } from '../../config/settings.js';
import { loadConfig, updateConfig } from '../../config/config.js';
import { forgetCredentials } from '../../auth/credentials.js';
import { reportForgotten } from '../logout.js';
import { NotFoundError } from '../../errors.js';
import { say } from '../../output/print.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['profiles', 'remove'],
  summary: 'Remove a profile, its settings and stored credentials',
  description:
    'Remove <name> from the config file and forget its stored token or API key (keychain and file). ' +
    'When it was the current profile, the default profile becomes current again. Exit 3 when there is no such profile.',
  examples: ['bo profiles remove staging'],
  operands: [operand.text('<name>', 'profile name')],
  async run(ctx, [nameArg]) {
    const name = parseProfileName(nameArg, 'profile name');
    const cfg = loadConfig(ctx.io.env);
    if (!Object.hasOwn(cfg.profiles, name)) {
      const known = Object.keys(cfg.profiles);
      throw new NotFoundError(`no profile "${name}"${known.length ? ` (known: ${known.join(', ')})` : ''}`);
    }
    const backend = cfg.profiles[name]!['credential-store'] ?? 'keychain';
    reportForgotten(ctx, name, backend, await forgetCredentials(ctx, { name, settings: cfg.profiles[name]! }));
    // Re-read under the lock: forgetting may have taken a while, and other writes stay.
    updateConfig(ctx.io.env, (fresh) => {
      delete fresh.profiles[name];
      if (fresh.currentProfile === name) delete fresh.currentProfile;
    });
    say(ctx, `Removed profile "${name}".`);
  },
});
