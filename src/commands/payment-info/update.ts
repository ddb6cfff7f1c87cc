// `bo payment-info update --account <uid> --payment-token <tok|-> [...]`: saves payment
// information made elsewhere (a payment provider's token). Never a card number: a token
// that looks like one is refused. The token is a secret: `-` reads it from stdin so it
// stays out of argv, and it is never printed (--dry-run shows it redacted).
import { defineMutation, target, changedIfRecord } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { updatePaymentInformationRequest, type PaymentInformationInput } from '../../api/billing.js';
import * as token from './token.js';

export default defineMutation({
  path: ['payment-info', 'update'],
  summary: 'Save payment information (a provider token, never a card number) for an account',
  description:
    "Save an account's payment information from a payment provider's token. Card numbers are never " +
    'accepted, only tokens. --payment-token - reads the token from the first line of stdin, which keeps ' +
    'it out of the command line and the shell history. The token is never printed: --dry-run shows it ' +
    'redacted. --last4 is the last four digits of the card, --exp-month 1-12 and --exp-year four digits.',
  examples: [
    'printf "%s\\n" "$TOKEN" | bo payment-info update --account acc_lvsegbmzg --payment-token - --last4 4242 --exp-month 12 --exp-year 2030',
    'bo payment-info update --account acc_lvsegbmzg --payment-token - --payment-method-type card --name-on-card "Ada Lovelace" --dry-run < token.txt',
  ],
  target: target.option('--account <uid>', 'the account Uid', { noun: 'account', single: true }),
  fields: [
    // Read from stdin with `-` and checked in prepare(): never a card number, never shown.
    field.checked('--payment-token <token>', 'PaymentToken', "the payment provider's token, or - to read it from stdin", (_l, t) => t, { required: true, secret: true }),
    field.text('--payment-method-type <type>', 'PaymentMethodType', 'the payment method type, e.g. card'),
    field.text('--name-on-card <name>', 'NameOnCard', 'the name on the card'),
    field.checked('--last4 <digits>', 'LastFourDigits', 'the last four digits of the card', (_l, t) => token.checkLast4(t)),
    field.integer('--exp-month <m>', 'ExpirationMonth', 'the expiry month, 1-12', 1, 12),
    field.checked('--exp-year <yyyy>', 'ExpirationYear', 'the expiry year, four digits', (_l, t) => token.checkYear(t)),
  ],
  resend: 'never', // a payment token is used once
  prepare: async ({ PaymentToken, ExpirationMonth, ExpirationYear, ...rest }, _args, ctx): Promise<PaymentInformationInput> => {
    const info: PaymentInformationInput = { PaymentToken: await token.readPaymentToken(ctx, PaymentToken), ...rest };
    const now = ctx.clock.now();
    if (ExpirationYear !== undefined) token.checkYearNotPast(ExpirationYear, now);
    if (ExpirationMonth !== undefined && ExpirationYear !== undefined) token.checkNotExpired(ExpirationMonth, ExpirationYear, now);
    if (ExpirationMonth !== undefined) info.ExpirationMonth = String(ExpirationMonth);
    if (ExpirationYear !== undefined) info.ExpirationYear = String(ExpirationYear);
    return info;
  },
  action: (a) => `Save payment information for account ${a}`,
  request: (a, info) => updatePaymentInformationRequest(a, info),
  done: 'saved',
  // D17: the answer is the saved payment information; any other answer cannot tell.
  changed: changedIfRecord,
  kind: 'Payment information of account',
  shown: (_a, { PaymentToken: _token, ...shown }) => shown,
});
