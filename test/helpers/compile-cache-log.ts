// Node's own log of its compile cache (NODE_DEBUG_NATIVE=COMPILE_CACHE), split from what
// `bo` wrote to stderr: which cache entries a run read or accepted, as Node names them.

/** The env that turns the log on. */
export const cacheLogEnv = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };

/** `stderr` without the log's lines, and the log. */
export function splitCacheLog(stderr: string): { stderr: string; log: string[] } {
  const lines = stderr.split('\n');
  const isLog = (line: string) => line.startsWith('[compile cache]');
  return { stderr: lines.filter((line) => !isLog(line)).join('\n'), log: lines.filter(isLog) };
}

/** The files whose cache Node read or accepted, as the log names them. */
export function cachedFiles(log: string[]): string[] {
  return [...new Set(log.flatMap((line) => / for CommonJS (\S+?)(\.\.\.| was )/.exec(line)?.[1] ?? []))].sort();
}
