// A child process working for a parent (the CLI relaunched on huge pages, or the extension's job or
// saver process): the parent's cancel message aborts the job as Ctrl-C would, and the
// parent's death (its IPC channel closing) ends the child at once rather than let it write on
// unobserved. Saves are atomic, so stopping anywhere leaves the old file or the new one.

export const CANCEL_MESSAGE = { type: 'cancel' } as const;

function isCancelMessage(m: unknown): boolean {
  return (m as { type?: unknown } | null)?.type === CANCEL_MESSAGE.type;
}

/** Does nothing in a process without a parent channel. `onMessage` sees the parent's other messages. */
export function listenToParent(onCancel: () => void, onMessage?: (m: unknown) => void): void {
  if (!process.send) return;
  process.on('message', (m: unknown) => (isCancelMessage(m) ? onCancel() : onMessage?.(m)));
  process.on('disconnect', () => process.exit(1));
  // The channel must not keep the process alive once its work is done.
  process.channel?.unref();
}
