// serveEdits run in the test's own thread, as the saver process runs it: send requests, await replies.
import { serveEdits, type EditSaverReply, type EditSaverRequest } from '../../../src/core/jobs/edits';

export function inThreadSaver(file: string, opts: Parameters<typeof serveEdits>[3] = {}) {
  let handler: (r: EditSaverRequest) => void = () => undefined;
  const replies: EditSaverReply[] = [];
  let notify = () => undefined as void;
  serveEdits(
    file,
    (h) => (handler = h),
    (r) => {
      replies.push(r);
      notify();
    },
    opts,
  );
  return {
    send: (r: EditSaverRequest) => handler(r),
    /** The request's final reply ('saved' or 'failed'; not 'waiting'). */
    reply: (seq: number) =>
      new Promise<EditSaverReply>((resolve) => {
        const check = () => {
          const r = replies.find((x) => x.seq === seq && x.type !== 'waiting');
          if (r) resolve(r);
        };
        notify = check;
        check();
      }),
  };
}
