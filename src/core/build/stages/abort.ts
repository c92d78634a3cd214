// Cancellation between stages and pages: the build yields to the event loop so an abort can land,
// then stops with an AbortError. Nothing is written before the final transaction, so nothing is half-written.

export function abortError(): Error {
  const e = new Error('build cancelled');
  e.name = 'AbortError';
  return e;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/** Lets pending events (an abort, a progress repaint) run, then checks the signal. */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}
