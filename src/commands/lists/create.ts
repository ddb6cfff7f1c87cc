// `bo lists create --name <name> [...]`: creates an email list (201 with the list, D17).
// Names are unique: a taken one is 409, reported naming the name. `-` reads a batch of
// creations: JSON Lines records with the Name (or name) and their own fields.
import { UsageError } from '../../errors.js';
import { defineMutation, target, CHANGED } from '../../mutation/define.js';
import { field } from '../../mutation/field.js';
import { createListRequest, listNamedRequest, listNamed } from '../../api/email.js';

/** A list's name: unique, 1-100 characters. */
function checkName(label: string, value: string): string {
  const length = [...value].length;
  if (length < 1 || length > 100) throw new UsageError(`${label} must be 1-100 characters (got ${length})`);
  return value;
}

export default defineMutation({
  path: ['lists', 'create'],
  summary: 'Create an email list',
  description:
    'Create an email list and print it. The name must be unique, 1-100 characters. --double-opt-in ' +
    'makes new subscribers confirm by email; --internal marks the list as internal. The welcome ' +
    'email is optional: --welcome-subject and --welcome-body (@file reads a file) are its content, ' +
    '--welcome-from-name and --welcome-from-email its sender. ' +
    'With - in place of --name, reads JSON Lines records from stdin and creates a list for each, its ' +
    'fields by API name or flag name ({"Name":"Beta","RequiresDoubleOptIn":true} or {"name":"Beta","double-opt-in":true}), ' +
    'over the flags given; a plain line is a name alone.',
  examples: [
    'bo lists create --name "Release previews" --double-opt-in',
    'bo lists create --name Beta --welcome-subject "Welcome to the beta" --welcome-body @welcome.html --welcome-from-email team@example.com --json',
    "jq -c '{Name: .name, Description: .about}' lists.jsonl | bo lists create - --internal",
  ],
  target: target.option('--name <name>', 'the list name, unique, 1-100 characters', { noun: 'email list', check: checkName, recordKey: 'Name', dash: true }),
  fields: [
    field.text('--description <text>', 'Description', 'a description (@file reads a file)'),
    field.text('--welcome-subject <text>', 'WelcomeSubject', 'subject of the welcome email'),
    field.text('--welcome-body <text>', 'WelcomeBody', 'body of the welcome email (@file reads a file)'),
    field.text('--welcome-from-name <name>', 'WelcomeFromName', 'sender name of the welcome email'),
    field.email('--welcome-from-email <address>', 'WelcomeFromEmail', 'sender address of the welcome email'),
    field.boolean('--double-opt-in', 'RequiresDoubleOptIn', 'new subscribers must confirm by email'),
    field.boolean('--internal', 'IsInternal', 'an internal list'),
  ],
  // Names are unique (D6 409): a list of that name shows whether it was created.
  resend: 'check',
  readBack: { request: (name) => listNamedRequest(name), inPlace: (name, _f, answer) => listNamed(answer, name) },
  action: (name) => `Create email list ${JSON.stringify(name)}`,
  request: (name, fields) => createListRequest({ Name: name, ...fields }),
  done: 'created',
  // D17: 201 with the created list (a taken name is a 409), so an accepted create made one.
  changed: () => CHANGED,
  notFound: () => 'the email lists endpoint was not found on this server',
  conflict: (name) => `an email list named ${JSON.stringify(name)} already exists; choose another --name`,
  shownUid: (name, _f, answer) => {
    const uid = (answer as { Uid?: unknown } | undefined)?.Uid;
    return typeof uid === 'string' ? uid : name;
  },
  shown: (name, fields) => ({ Name: name, ...fields }),
});
