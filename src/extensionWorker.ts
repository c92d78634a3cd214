// Runs a long job off the extension host's main thread. Messages: in {cancel}, out {progress|done|error}.
import { parentPort, workerData } from 'node:worker_threads';
import { runJob, type JobRequest } from './core/jobs';
import { UserError } from './core/store/errors';

const controller = new AbortController();
parentPort?.on('message', (m: { type: string }) => {
  if (m.type === 'cancel') controller.abort();
});

runJob(workerData as JobRequest, controller.signal, (p) => parentPort?.postMessage({ type: 'progress', ...p }))
  .then((result) => parentPort?.postMessage({ type: 'done', result }))
  .catch((e: Error) => parentPort?.postMessage({
    type: 'error',
    cancelled: controller.signal.aborted,
    message: e instanceof UserError ? e.message : `${e.name}: ${e.message}`,
  }));
// The main thread terminates this worker once it has the result: the message listener would keep it alive.
