// `bo profiles list`: the configured profiles, the current one marked. It reads only
// the config file: asking the keychain about each profile would be slow.
import { defineCommand } from '../../command.js';
import { loadConfig, currentProfileName } from '../../config/config.js';
import { printList } from '../../output/print.js';
import { listOf } from '../../api/record-source.js';

// --json keys are camelCase, as in every shape bo makes (`auth status`, batch outcomes).
interface Row {
  name: string;
  current: boolean;
  baseUrl: string | null;
  apiKeyScheme: string | null;
  timeout: number | null;
  credentialStore: string | null;
}

export default defineCommand({
  printsRecords: true,
  path: ['profiles', 'list'],
  summary: 'List the tenant profiles',
  description: 'List the profiles in the config file with their base URL; * marks the current one.',
  examples: ['bo profiles list', 'bo profiles list --json'],
  async run(ctx) {
    const cfg = loadConfig(ctx.io.env);
    const current = currentProfileName(ctx.globals, cfg);
    const names = Object.keys(cfg.profiles);
    // The profile in use is listed even before it has any setting of its own.
    if (!names.includes(current)) names.push(current);
    const rows: Row[] = names.sort().map((name) => {
      const s = cfg.profiles[name] ?? {};
      return {
        name,
        current: name === current,
        baseUrl: s['base-url'] ?? null,
        apiKeyScheme: s['api-key-scheme'] ?? null,
        timeout: s.timeout ?? null,
        // null ("none" in the table): nothing stored, so no keychain is asked for it.
        credentialStore: s['credential-store'] ?? null,
      };
    });
    await printList(ctx, listOf(rows), [
      { header: 'Current', get: (r: Row) => (r.current ? '*' : '') },
      { header: 'Name', get: (r: Row) => r.name },
      { header: 'Base URL', get: (r: Row) => r.baseUrl },
      { header: 'Storage', get: (r: Row) => r.credentialStore ?? 'none' },
    ]);
  },
});
