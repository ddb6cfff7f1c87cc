// What a plain scan of argv tells before commander parses it: the command word (the
// group, or a top-level verb), the word after it (a group's verb, or an argument) and
// the -p/--profile value. Start-up uses it to do less: src/main.ts loads and builds
// only the named verb, else its group. Only a guess: a caller falls back to the full
// way when the scan finds nothing it knows, and commander stays the judge of the
// arguments.

/** Global options that take a value (src/program.ts addGlobalOptions; test/argv-scan.unit.test.ts keeps them in step). */
export const GLOBAL_VALUE_OPTIONS: readonly string[] = ['-p', '--profile', '--base-url', '--jq', '--timeout', '--max-retries', '--csv-separator'];

export function scanArgv(argv: readonly string[]): { command?: string; verb?: string; profile?: string; help: boolean } {
  let command: string | undefined;
  let verb: string | undefined;
  let profile: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '-p' || arg === '--profile') profile = argv[++i];
    else if (arg.startsWith('--profile=')) profile = arg.slice('--profile='.length);
    else if (/^-p[^-]/.test(arg)) profile = arg.slice(2);
    else if (GLOBAL_VALUE_OPTIONS.includes(arg)) i++;
    else if (!arg.startsWith('-') && command === undefined) command = arg;
    else if (!arg.startsWith('-') && verb === undefined) verb = arg;
  }
  return { command, verb, profile, help };
}
