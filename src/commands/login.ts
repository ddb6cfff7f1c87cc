// `bo login`: wires flags, the terminal and the credential store to the login flow
// (src/auth/login-flow.ts). Only the flag parser is imported up front; the flow,
// prompts, QR drawing and HTTP load inside `run`.

import { defineCommand } from '../command.js';
import { LOGIN_OPTIONS, parseLoginFlags } from '../auth/login/options.js';
import { signInAndStore } from '../auth/login/sign-in.js';

export default defineCommand({
  path: ['login'],
  summary: 'Sign in and store a token (two-factor prompts included)',
  description:
    'Sign in with POST /tokens and complete two-factor sign-in: a code from email or an authenticator app ' +
    '(resend, switch or a recovery code at the prompt), or the forced enrollment of a new method. The token goes ' +
    'to the OS keychain (a 0600 file only with --insecure-storage; with --sandbox always the 0600 file: a sandbox token ' +
    'opens nothing else). The password is never a flag: it is prompted, ' +
    'or read from the first line of stdin with --password-stdin. Without a terminal (or with --no-input), pass ' +
    'what would be asked: --username, --password-stdin, --code or --code-command, --enroll, --recovery-codes-file. ' +
    '--code-command runs through the shell each time a code is needed; during authenticator enrollment the new ' +
    'secret is in BO_TOTP_SECRET. Its first 6-digit number is used and the command (children too) is then ended; ' +
    'it has BO_CODE_COMMAND_TIMEOUT seconds (default 120) and 64 KiB of output to print one, else exit 4. ' +
    "The server's answers are checked: a token of printable ASCII without spaces, at most 16 KiB, else exit 1 and " +
    'nothing stored; a base32 secret; --qr-png writes only a PNG. The expiry shown is the token\'s own (JWT exp). ' +
    "--base-url (or BO_BASE_URL) naming another tenant than the profile's saved base URL replaces it, which is said " +
    'on stderr; without a terminal (or with --no-input) only with --yes (exit 2 otherwise).',
  examples: [
    { example: 'bo login', needs: 'a terminal: it asks for the user name, password and code' },
    { example: 'bo login --username ada@example.com', needs: 'a terminal: it asks for the password and code' },
    {
      example: 'printf "%s\\n" "$PASSWORD" | bo login --username ci@example.com --password-stdin --code-command \'oathtool --totp -b "$TOTP_SECRET"\'',
      needs: "a tenant's user with an authenticator, and oathtool",
    },
    {
      example:
        'bo login --username ci@example.com --password-stdin --enroll totp --code-command \'echo "$BO_TOTP_SECRET" > secret; oathtool --totp -b "$BO_TOTP_SECRET"\' --recovery-codes-file codes.txt',
      needs: "a tenant's user who must enrol, and oathtool",
    },
  ],
  options: LOGIN_OPTIONS,
  async run(ctx, _args, flags) {
    const options = parseLoginFlags(flags, ctx.io.env);
    await signInAndStore(ctx, options, { insecureStorage: flags.insecureStorage === true, yes: flags.yes === true });
  },
});
