// thrownBy(Class, run): the error `run` throws, checked to be a `Class`; the test fails
// when it throws none. For asserting the fields of an error, not just its message.

export function thrownBy<E extends Error>(errorClass: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (err) {
    if (err instanceof errorClass) return err;
    throw new Error(`expected a ${errorClass.name}, got: ${String(err)}`);
  }
  throw new Error(`expected a ${errorClass.name}, but nothing was thrown`);
}
