// `bo people magic-link <email>`: asks the service to email a sign-in link. Sent with no
// Authorization header (D4); the answer is the same whether or not the address belongs
// to a person (D19), so the message says "if".
import { checkEmail } from '../../input/validate.js';
import { defineMutation, target, UNKNOWN } from '../../mutation/define.js';
import { magicLinkRequest } from '../../api/crm.js';

export default defineMutation({
  path: ['people', 'magic-link'],
  summary: 'Email a sign-in link to a person',
  description:
    'Ask the service to email a sign-in link to an address. The link is sent only if the address ' +
    'belongs to a person, and the service answers the same either way, so the outcome cannot be ' +
    'told from here. This endpoint takes no credentials, so none are sent.',
  examples: ['bo people magic-link chloe.jensen.00@acme-inc.example', 'bo people magic-link ada@example.com --dry-run'],
  target: target.uid('<email>', 'the email address', { noun: 'person', single: true, check: checkEmail }),
  anonymous: true,
  resend: 'never', // a second email: the person decides
  action: (e) => `Email a sign-in link to ${e}`,
  request: (e) => magicLinkRequest(e),
  done: 'requested',
  // D19: the answer is the same whether or not a link is emailed: it never tells.
  changed: () => UNKNOWN,
  neutral: 'requested',
  kind: 'Sign-in link for',
  notFound: () => 'the sign-in link endpoint was not found on this server',
  shown: () => ({}),
  note: () => 'The link is emailed only if the address belongs to a person; the service does not say whether it does.',
});
