// A journaled command line back into its words: the journal writes each word as it is
// when it is plain, else in single quotes with `'\''` for a quote (journal-run.ts
// `commandLine`); `bo batch resume` runs it again from these words.

/** One word of a journaled command: as it is when plain, else single-quoted. */
export const commandWord = (text: string): string => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);

/** `accounts cancel - --reason 'It'\''s over'` → ['accounts', 'cancel', '-', '--reason', "It's over"]. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '\\' && text[i + 1] === "'") {
      word = `${word ?? ''}'`;
      i++;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}
