// Work off the extension host's main thread, in dist/worker.js:
// - forked as a JOB PROCESS (src/extension/jobs/runJobProcess.ts): one long job (fetch, rebuild,
//   verify, export). Messages: in {type: 'run', request} then perhaps {type: 'cancel'}; out
//   {progress|done|error}. A process of its own, so it can start on huge pages and its memory is
//   never the host's.
// - as a worker thread with workerData.kind 'saver': the background saver of small edits
//   (core/edits.ts), which lives until the main thread terminates it.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { serveEdits, type EditSaverRequest } from './core/edits';
import { runJob, type JobRequest } from './core/jobs';
import { listenToParent } from './core/process/parentLink';
import { UserError } from './core/store/errors';

if (!isMainThread && (workerData as { kind?: string } | null)?.kind === 'saver') {
  const { dbFile } = workerData as { dbFile: string };
  serveEdits(dbFile, (handler) => parentPort?.on('message', (m: EditSaverRequest) => handler(m)), (r) => parentPort?.postMessage(r));
} else if (process.send) {
  const send = (m: object) => process.send?.(m);
  const controller = new AbortController();
  let started = false;
  listenToParent(() => controller.abort(), (m) => {
    const { type, request } = m as { type?: string; request?: JobRequest };
    if (type !== 'run' || !request || started) return;
    started = true;
    runJob(request, controller.signal, (p) => send({ type: 'progress', ...p }))
      .then((result) => send({ type: 'done', result }))
      .catch((e: Error) => send({
        type: 'error',
        cancelled: controller.signal.aborted,
        message: e instanceof UserError ? e.message : `${e.name}: ${e.message}`,
      }));
  });
  // Kept alive by its channel until the parent, having the result, ends it: exiting on its own could
  // drop the last message unsent.
  process.channel?.ref();
}
