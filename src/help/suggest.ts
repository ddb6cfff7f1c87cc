// "Did you mean …?" for words commander does not check itself (help topics, the
// commands named after `bo help`): the nearest candidate by edit distance.

function distance(a: string, b: string): number {
  // Damerau-Levenshtein (optimal string alignment): a swapped pair is one typo.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidates (ties kept), when close enough to be a typo; else []. `maxRatio`:
 * the edits allowed, as a share of the longer word (below it).
 */
export function nearest(word: string, candidates: string[], maxRatio = 0.5): string[] {
  let best = Infinity;
  let found: string[] = [];
  for (const c of candidates) {
    const dist = distance(word.toLowerCase(), c.toLowerCase());
    // As commander does: at most 2 edits, and less than half the word.
    if (dist > 2 || dist / Math.max(word.length, c.length) >= maxRatio) continue;
    if (dist < best) {
      best = dist;
      found = [c];
    } else if (dist === best) found.push(c);
  }
  return found;
}

export function didYouMean(word: string, candidates: string[]): string {
  const near = nearest(word, candidates);
  // Inside an error line, which starts in lower case and reads on after it.
  return near.length ? ` (did you mean ${near.join(' or ')}?)` : '';
}

/**
 * Commander's own error text, in bo's style: its "(Did you mean …?)" in lower case like
 * every other line bo writes, and "unknown command 'version'" or "unknown option '-v'"
 * with the flag that prints the version (`bo version`, `bo -v` and `bo -V` are what
 * other tools take).
 */
export function withVersionHint(message: string): string {
  const text = message.replace(/\(Did you mean /g, '(did you mean ');
  if (!/^error: unknown (command 'version'|option '-[vV]')/.test(text) || text.includes('did you mean')) return text;
  return `${text.trimEnd()}\n(did you mean bo --version?)\n`;
}
