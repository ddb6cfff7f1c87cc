// `bo payment-info update --account <uid> --payment-token <tok|-> [...]`: saves payment
// information made elsewhere (a payment provider's token). Never a card number: a token
// that looks like one is refused. The token is a secret: `-` reads it from stdin so it
// stays out of argv, and it is never printed (--dry-run shows it redacted).
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { updatePaymentInformationRequest, type PaymentInformationInput } from '../../api/billing.js';
import * as v from '../../input/validate.js';
import * as token from './token.js';

interface Opts extends MutationFlags {
  account: string;
  paymentToken: string;
  paymentMethodType?: string;
  nameOnCard?: string;
  last4?: string;
  expMonth?: string;
  expYear?: string;
}

export default defineCommand<Opts>({
  path: ['payment-info', 'update'],
  summary: 'Save payment information (a provider token, never a card number) for an account',
  description:
    "Save an account's payment information from a payment provider's token. Card numbers are never " +
    'accepted, only tokens. --payment-token - reads the token from the first line of stdin, which keeps ' +
    'it out of the command line and the shell history. The token is never printed: --dry-run shows it ' +
    'redacted. --last4 is the last four digits of the card, --exp-month 1-12 and --exp-year four digits.',
  examples: [
    'printf "%s\\n" "$TOKEN" | bo payment-info update --account acc_0001 --payment-token - --last4 4242 --exp-month 12 --exp-year 2030',
    'bo payment-info update --account acc_0001 --payment-token - --payment-method-type card --name-on-card "Ada Lovelace" --dry-run < token.txt',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .requiredOption('--account <uid>', 'the account Uid')
        .requiredOption('--payment-token <token>', "the payment provider's token, or - to read it from stdin")
        .option('--payment-method-type <type>', 'the payment method type, e.g. card')
        .option('--name-on-card <name>', 'the name on the card')
        .option('--last4 <digits>', 'the last four digits of the card')
        .option('--exp-month <m>', 'the expiry month, 1-12')
        .option('--exp-year <yyyy>', 'the expiry year, four digits'),
      { batch: false },
    ),
  run: async (ctx, _args, opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '--account',
        noun: 'account',
        done: 'saved',
        single: true,
        action: (a) => `Save payment information for account ${a}`,
        prepare: async () => {
          const info: PaymentInformationInput = {
            PaymentToken: await token.readPaymentToken(ctx, opts.paymentToken),
          };
          if (opts.paymentMethodType !== undefined) info.PaymentMethodType = await v.checkText('--payment-method-type', opts.paymentMethodType, { min: 1 });
          if (opts.nameOnCard !== undefined) info.NameOnCard = await v.checkText('--name-on-card', opts.nameOnCard, { min: 1 });
          if (opts.last4 !== undefined) info.LastFourDigits = token.checkLast4(opts.last4);
          const now = ctx.clock.now();
          const month = opts.expMonth === undefined ? undefined : v.checkInteger('--exp-month', opts.expMonth, 1, 12);
          const year = opts.expYear === undefined ? undefined : token.checkExpYear(opts.expYear, now);
          if (month !== undefined && year !== undefined) token.checkNotExpired(month, year, now);
          if (month !== undefined) info.ExpirationMonth = String(month);
          if (year !== undefined) info.ExpirationYear = String(year);
          return info;
        },
        request: (a, info) => updatePaymentInformationRequest(a, info),
        kind: 'Payment information of account',
        // The token is a secret: never among the fields shown.
        shown: (_a, { PaymentToken: _token, ...shown }) => shown,
      },
      opts.account,
      opts,
    );
  },
});
