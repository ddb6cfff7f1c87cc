// Batch input: stdin read chunk by chunk (constant memory, whatever its length), one
// value a line or JSON Lines records carrying the value under a key (Uid, Email).
// Blank lines and `#` comments are skipped; a malformed line is an error record, so
// the runner reports it and sends nothing for it.

export type BatchRecord = { line: number; target: string } | { line: number; error: string };

export async function* readRecords(
  input: NodeJS.ReadableStream,
  key: string,
  check: (label: string, value: string) => string,
): AsyncGenerator<BatchRecord> {
  let rest = '';
  let line = 0;
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const text = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      line++;
      const record = parseLine(text, line, key, check);
      if (record) yield record;
    }
  }
  rest += decoder.decode();
  if (rest !== '') {
    line++;
    const record = parseLine(rest, line, key, check);
    if (record) yield record;
  }
}

export function parseLine(
  raw: string,
  line: number,
  key: string,
  check: (label: string, value: string) => string,
): BatchRecord | undefined {
  const text = raw.replace(/\r$/, '').trim();
  if (text === '' || text.startsWith('#')) return undefined;
  let value: string;
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { line, error: `line ${line}: not valid JSON` };
    }
    const found = (parsed as Record<string, unknown>)[key];
    if (typeof found !== 'string') return { line, error: `line ${line}: the record has no "${key}" string` };
    value = found;
  } else {
    value = text;
  }
  try {
    return { line, target: check(`line ${line}`, value) };
  } catch (err) {
    return { line, error: (err as Error).message };
  }
}
