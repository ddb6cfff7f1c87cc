// Memory outside V8's heap (an ArrayBuffer's) is freed when the collector finds its
// wrapper dead; an export allocates little on the heap, so collections are rare and
// dead buffers pile up to V8's limit for them (64 MB) before one runs
// (README "Performance").

/**
 * Frees `bytes`' memory now (ArrayBuffer.prototype.transfer, Node ≥ 22), when they are
 * the whole of an ArrayBuffer of their own: never a slice of a shared one. They read
 * as empty afterwards. On Node 20 the collector frees them in its time.
 */
export function giveBack(bytes: ArrayBufferView): void {
  const { buffer, byteOffset, byteLength } = bytes;
  const transfer = (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer;
  if (typeof transfer === 'function' && byteOffset === 0 && byteLength === buffer.byteLength && byteLength > 0) transfer.call(buffer, 0);
}
