// `bo lists create --name <name> [...]`: creates an email list (201 with the list, D17).
// Names are unique: a taken one is 409, reported naming the name.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { createListRequest } from '../../api/email.js';
import * as v from '../../input/validate.js';
import { ApiError, BoError, UsageError } from '../../errors.js';

interface Opts extends MutationFlags {
  name: string;
  description?: string;
  doubleOptIn?: boolean;
  internal?: boolean;
  welcomeSubject?: string;
  welcomeBody?: string;
  welcomeFromName?: string;
  welcomeFromEmail?: string;
}

export default defineCommand<Opts>({
  path: ['lists', 'create'],
  summary: 'Create an email list',
  description:
    'Create an email list and print it. The name must be unique, 1-100 characters. --double-opt-in ' +
    'makes new subscribers confirm by email; --internal marks the list as internal. The welcome ' +
    'email is optional: --welcome-subject and --welcome-body (@file reads a file) are its content, ' +
    '--welcome-from-name and --welcome-from-email its sender.',
  examples: [
    'bo lists create --name "Product updates" --double-opt-in',
    'bo lists create --name Beta --welcome-subject "Welcome to the beta" --welcome-body @welcome.html --welcome-from-email team@example.com --json',
  ],
  configure: (cmd) =>
    mutationFlags(
      cmd
        .requiredOption('--name <name>', 'the list name, unique, 1-100 characters')
        .option('--description <text>', 'a description (@file reads a file)')
        .option('--double-opt-in', 'new subscribers must confirm by email')
        .option('--internal', 'an internal list')
        .option('--welcome-subject <text>', 'subject of the welcome email')
        .option('--welcome-body <text>', 'body of the welcome email (@file reads a file)')
        .option('--welcome-from-name <name>', 'sender name of the welcome email')
        .option('--welcome-from-email <address>', 'sender address of the welcome email'),
      { batch: false },
    ),
  run: async (ctx, _args, opts) => {
    const text = (flag: string, value: string | undefined) => (value === undefined ? undefined : v.checkText(flag, value, { min: 1 }));
    try {
      await runMutation(
        ctx,
        {
          targetLabel: '--name',
          noun: 'email list',
          done: 'created',
          single: true,
          checkTarget: (label, value) => {
            const length = [...value].length;
            if (length < 1 || length > 100) throw new UsageError(`${label} must be 1-100 characters (got ${length})`);
            return value;
          },
          action: (name) => `Create email list ${JSON.stringify(name)}`,
          prepare: async () => {
            const fields = {
              Description: await text('--description', opts.description),
              WelcomeSubject: await text('--welcome-subject', opts.welcomeSubject),
              WelcomeBody: await text('--welcome-body', opts.welcomeBody),
              WelcomeFromName: await text('--welcome-from-name', opts.welcomeFromName),
              WelcomeFromEmail: opts.welcomeFromEmail === undefined ? undefined : v.checkEmail('--welcome-from-email', opts.welcomeFromEmail),
              RequiresDoubleOptIn: opts.doubleOptIn ? true : undefined,
              IsInternal: opts.internal ? true : undefined,
            };
            return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
          },
          request: (name, fields) => createListRequest({ Name: name, ...fields }),
          notFound: () => 'the email lists endpoint was not found on this server',
          // The new list's Uid, from the answer; its name is the first field.
          shownUid: (name, _f, answer) => {
            const uid = (answer as { Uid?: unknown } | undefined)?.Uid;
            return typeof uid === 'string' ? uid : name;
          },
          shown: (name, fields) => ({ Name: name, ...fields }),
        },
        opts.name,
        opts,
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        throw new BoError(`an email list named ${JSON.stringify(opts.name)} already exists; choose another --name`, { status: 409, code: err.code ?? 'conflict' });
      }
      throw err;
    }
  },
});
