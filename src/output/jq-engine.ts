// The jq engine behind --jq: jq 1.8.2 compiled to WebAssembly (the jq-wasm package),
// in its own lazy chunk (dist/lazy/jq.cjs, scripts/build.mjs) with jq.wasm beside it,
// loaded only when --jq is given. Plain values in and out: the main bundle (jq.ts)
// makes the errors and the output, since a project error class from this chunk would
// be another copy of it.
//
// Two things the package does not offer are done at the WebAssembly boundary, by the
// names of the runtime's own import functions:
// - the environment: the runtime answers jq's `$ENV` and `env` with a made-up one
//   (USER=web_user, HOME=/home/web_user…); its two environ imports are replaced by ours,
//   which hand jq the list it is given (the real environment minus bo's secrets).
// - the input: the runtime feeds jq's input one byte per JavaScript call; reads of the
//   input file are answered here a buffer at a time (~10 % of a page's time).
// - an abort: jq aborts when it runs out of memory (the module's memory is at most
//   256 MiB, 4096 pages: `[range(1e9)]`, `def f: [f]; f`, `"x"*1e9`), and the runtime
//   would print `Aborted()` itself (console.error) before throwing. Its abort imports
//   are replaced by ones that only throw; run() then reports the run as aborted.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadJq, type Jq } from 'jq-wasm';

export interface JqRun {
  /** jq's compact output: one value a line. */
  stdout: string;
  stderr: string;
  exitCode: number;
  /**
   * jq ran out of memory or recursed too deep (an abort, a WebAssembly trap, the stack
   * of the JavaScript engine): `stdout` holds the whole lines it wrote before, and the
   * engine is dead, every later run aborted at once without calling it again.
   */
  aborted?: true;
}

export interface JqEngine {
  /** Runs the expression on `input`: JSON text (or its UTF-8), any number of values, as jq reads a file. */
  run(input: string | Buffer): JqRun;
}

/**
 * jq.wasm: beside this chunk in dist/lazy/ (copied there by the build, so nothing at
 * run time needs node_modules); from the package when running from source (tests).
 */
function wasmPath(): string {
  const beside = fileURLToPath(new URL('./jq.wasm', import.meta.url));
  if (existsSync(beside) || !import.meta.url.endsWith('.ts')) return beside;
  return createRequire(import.meta.url).resolve('jq-wasm/jq.wasm');
}

/** The file the package hands jq as its input. */
const INPUT_PATH = '/dev/stdin';

type Imports = Record<string, Record<string, unknown>>;

/** What the replaced abort imports throw: jq itself gave up (out of memory, a failed assertion). */
class JqAbort extends Error {}

/**
 * A run that ended in a throw because jq could not go on: its abort, a trap (the C stack
 * overflowing into the heap traps as `memory access out of bounds`), or a stack
 * overflow of the JavaScript engine. Anything else is a bug, thrown on.
 */
function outOfResources(err: unknown): boolean {
  return err instanceof JqAbort || err instanceof WebAssembly.RuntimeError || err instanceof RangeError;
}

/** The runtime's import functions by their own names (the import keys are minified). */
function replaceImport(imports: Imports, name: string, make: (original: (...args: number[]) => number) => (...args: number[]) => number): void {
  for (const module of Object.values(imports)) {
    for (const [key, fn] of Object.entries(module)) {
      if (typeof fn === 'function' && fn.name === name) {
        module[key] = make(fn as (...args: number[]) => number);
        return;
      }
    }
  }
  throw new Error(`jq-wasm: the runtime has no ${name} import`);
}

/**
 * Loads jq with `environment` (`NAME=value` strings) as its environment. `expression`
 * is not compiled here: run() compiles it on each call, as jq does on each start.
 */
export async function loadJqEngine(expression: string, environment: readonly string[]): Promise<JqEngine> {
  const module = await WebAssembly.compile(readFileSync(wasmPath()));
  let memory: WebAssembly.Memory | undefined;
  const env = environment.map((entry) => Buffer.from(`${entry}\0`, 'utf8'));
  const envBytes = env.reduce((n, b) => n + b.length, 0);
  // The input of the current run, and the file descriptor jq opened it as.
  let input: Buffer = Buffer.alloc(0);
  let inputAt = 0;
  let inputFd = -1;
  let output: Buffer[] = [];
  const view = () => new DataView(memory!.buffer);
  const cString = (ptr: number) => {
    const heap = new Uint8Array(memory!.buffer);
    let end = ptr;
    while (heap[end] !== 0) end++;
    return Buffer.from(heap.subarray(ptr, end)).toString('utf8');
  };

  let jq: Jq | undefined = await loadJq({
    instantiateWasm(imports, onSuccess) {
      const own = imports as unknown as Imports;
      replaceImport(own, '_environ_sizes_get', () => (countPtr, sizePtr) => {
        view().setUint32(countPtr!, env.length, true);
        view().setUint32(sizePtr!, envBytes, true);
        return 0;
      });
      replaceImport(own, '_environ_get', () => (environPtr, bufPtr) => {
        let at = bufPtr!;
        env.forEach((bytes, i) => {
          view().setUint32(environPtr! + 4 * i, at, true);
          new Uint8Array(memory!.buffer).set(bytes, at);
          at += bytes.length;
        });
        return 0;
      });
      // The input file, opened once per run by the path the package names: its reads
      // (fd_read over iovecs) are served from `input`.
      replaceImport(own, '___syscall_openat', (original) => (...args) => {
        const fd = original(...args);
        if (cString(args[1]!) === INPUT_PATH) inputFd = fd;
        return fd;
      });
      // And jq's output (stdout, fd 1) is taken a buffer at a time, not a byte.
      replaceImport(own, '_fd_write', (original) => (fd, iov, iovcnt, pnum) => {
        if (fd !== 1) return original(fd!, iov!, iovcnt!, pnum!);
        const dv = view();
        let total = 0;
        for (let i = 0; i < iovcnt!; i++) {
          const ptr = dv.getUint32(iov! + 8 * i, true);
          const len = dv.getUint32(iov! + 8 * i + 4, true);
          output.push(Buffer.from(memory!.buffer.slice(ptr, ptr + len)));
          total += len;
        }
        dv.setUint32(pnum!, total, true);
        return 0;
      });
      // jq's abort() and a failed assert(): thrown at once, with nothing printed.
      for (const name of ['__abort_js', '___assert_fail']) {
        replaceImport(own, name, () => () => {
          throw new JqAbort();
        });
      }
      replaceImport(own, '_fd_read', (original) => (fd, iov, iovcnt, pnum) => {
        if (fd !== inputFd) return original(fd!, iov!, iovcnt!, pnum!);
        const heap = new Uint8Array(memory!.buffer);
        const dv = view();
        let total = 0;
        for (let i = 0; i < iovcnt!; i++) {
          const ptr = dv.getUint32(iov! + 8 * i, true);
          const len = dv.getUint32(iov! + 8 * i + 4, true);
          const n = Math.min(len, input.length - inputAt);
          heap.set(input.subarray(inputAt, inputAt + n), ptr);
          inputAt += n;
          total += n;
          if (n < len) break;
        }
        dv.setUint32(pnum!, total, true);
        return 0;
      });
      void WebAssembly.instantiate(module, imports).then((instance) => {
        memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
        onSuccess(instance, module);
      });
    },
  });
  return {
    run(text) {
      // Dead: its memory may be exhausted or corrupt, so it is never called again.
      if (jq === undefined) return { stdout: '', stderr: '', exitCode: -1, aborted: true };
      input = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      inputAt = 0;
      inputFd = -1;
      output = [];
      try {
        // '--': an expression that begins with '-' is still the expression.
        const { stderr, exitCode } = jq.raw('', expression, ['-c', '--']);
        return { stdout: Buffer.concat(output).toString('utf8'), stderr, exitCode };
      } catch (err) {
        // Let go of the instance (and its memory, up to 256 MiB) whatever the error.
        jq = undefined;
        memory = undefined;
        if (!outOfResources(err)) throw err;
        const written = Buffer.concat(output);
        return { stdout: written.toString('utf8', 0, written.lastIndexOf(0x0a) + 1), stderr: '', exitCode: -1, aborted: true };
      } finally {
        input = Buffer.alloc(0);
        output = [];
      }
    },
  };
}
