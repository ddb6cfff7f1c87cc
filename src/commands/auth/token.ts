// `bo auth token`: the access token on stdout, for `curl -H "Authorization: bearer …"`.
// The one command that prints a secret, on purpose; nothing else goes to stdout.
import { defineCommand } from '../../command.js';
import { resolveCredential } from '../../auth/credentials.js';
import { AuthError } from '../../errors.js';
import { boCommand, keychainMissingHint } from '../../hints.js';

export default defineCommand({
  path: ['auth', 'token'],
  summary: 'Print the access token (for curl)',
  description:
    'Print the access token of the current profile (BO_TOKEN when set) on stdout. ' +
    'Exit 4 when there is none, or when the profile holds an API key instead.',
  examples: ['curl -H "Authorization: bearer $(bo auth token)" https://acme.example.com/api/v1/crm/accounts'],
  async run(ctx) {
    const { credential, profile } = await resolveCredential(ctx).catch((err: unknown) => {
      // The store's own hint names --insecure-storage, which this command does not take.
      if ((err as { code?: string }).code !== 'keychain_unavailable') throw err;
      throw new AuthError((err as Error).message, { code: 'keychain_unavailable', hint: keychainMissingHint(ctx.globals) });
    });
    if (!credential) {
      // Under --sandbox only a `bo --sandbox login` token counts, never one from the environment.
      throw new AuthError(`not signed in (profile "${profile}")`, { code: 'not_signed_in', hint: `run \`${boCommand(ctx.globals, 'login')}\`` });
    }
    if (credential.kind !== 'token') {
      throw new AuthError(`profile "${profile}" uses an API key, not a token`, {
        hint: `an API key is sent as is; \`${boCommand(ctx.globals, 'auth token')}\` prints tokens from \`${boCommand(ctx.globals, 'login')}\` or BO_TOKEN`,
      });
    }
    ctx.io.stdout.write(`${credential.token}\n`);
  },
});
