// `bo profiles use <name>`: the profile later commands use when -p/BO_PROFILE is absent.
import { defineCommand } from '../../command.js';
import { parseProfileName } from '../../config/settings.js';
import { loadConfig, updateConfig } from '../../config/config.js';
import { NotFoundError } from '../../errors.js';
import { say } from '../../output/print.js';
import { operand } from '../../input/declare.js';

export default defineCommand({
  path: ['profiles', 'use'],
  summary: 'Make a profile the current one',
  description:
    'Make <name> the profile used when neither -p nor BO_PROFILE is given. The profile must exist: ' +
    'create one with `bo -p <name> config set base-url <url>`.',
  examples: ['bo profiles use staging', 'bo profiles use default'],
  operands: [operand.text('<name>', 'profile name')],
  async run(ctx, [nameArg]) {
    const name = parseProfileName(nameArg, 'profile name');
    const cfg = loadConfig(ctx.io.env);
    if (name !== 'default' && !Object.hasOwn(cfg.profiles, name)) {
      const known = Object.keys(cfg.profiles);
      throw new NotFoundError(`no profile "${name}"${known.length ? ` (known: ${known.join(', ')})` : ''}`, {
        hint: `create it with: bo -p ${name} config set base-url <url>`,
      });
    }
    updateConfig(ctx.io.env, (fresh) => {
      fresh.currentProfile = name;
    });
    say(ctx, `Now using profile "${name}".`);
  },
});
