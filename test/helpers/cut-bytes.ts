// Bytes cut into the pieces a reader gets from a pipe, at chosen offsets: for tests of
// readers that must give the same answer wherever the reads fall.

/** `bytes` cut at the given offsets (each taken modulo the length; empty pieces dropped). */
export function cutBytes(bytes: Buffer, at: number[]): Buffer[] {
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  return out.filter((b) => b.length > 0);
}
