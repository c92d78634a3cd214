// Off the extension host's main thread: either one long job (messages: in {cancel}, out
// {progress|done|error}), or, with workerData.kind 'saver', the background saver of small edits
// (core/edits.ts), which lives until the main thread terminates it.
import { parentPort, workerData } from 'node:worker_threads';
import { serveEdits, type EditSaverRequest } from './core/edits';
import { runJob, type JobRequest } from './core/jobs';
import { UserError } from './core/store/errors';

const data = workerData as JobRequest | { kind: 'saver'; dbFile: string };

if (data.kind === 'saver') {
  serveEdits(data.dbFile, (handler) => parentPort?.on('message', (m: EditSaverRequest) => handler(m)), (r) => parentPort?.postMessage(r));
} else {
  const controller = new AbortController();
  parentPort?.on('message', (m: { type: string }) => {
    if (m.type === 'cancel') controller.abort();
  });

  runJob(data, controller.signal, (p) => parentPort?.postMessage({ type: 'progress', ...p }))
    .then((result) => parentPort?.postMessage({ type: 'done', result }))
    .catch((e: Error) => parentPort?.postMessage({
      type: 'error',
      cancelled: controller.signal.aborted,
      message: e instanceof UserError ? e.message : `${e.name}: ${e.message}`,
    }));
  // The main thread terminates this worker once it has the result: the message listener would keep it alive.
}
