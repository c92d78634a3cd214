// dist/worker.js, forked by the extension as a process of its own (extension/jobs/workerProcess.ts).
// Its first message says what it is:
// - {type: 'run', request}: one long job (fetch, rebuild, verify, export). Then perhaps {type:
//   'cancel'}; out {progress|done|error}.
// - {type: 'serve-edits', dbFile}: the background saver of small edits (core/jobs/edits.ts). Then
//   EditSaverRequests; out EditSaverReplies.
// - {type: 'diversity', dbFile, buildId}: the funnel report's diversity of that build (core/review/diversity);
//   out {done, result: DiversityReport}|{error}.
// - {type: 'agreement', input}: the funnel report's agreement among all raters (core/review/quality/
//   agreementFigures.ts), from the input the extension read; out {done, result}|{error}.
// Either way the parent ends it: it has the result, or the saver is idle.
import { serveEdits, type EditSaverRequest } from './core/jobs/edits';
import { runJob, type JobRequest } from './core/jobs/jobs';
import { listenToParent } from './core/ground/process/parentLink';
import { UserError } from './core/ground/store/errors';
import { diversityOfFile } from './core/review/diversity/report';
import { raterAgreementFigures, type RaterAgreementInput } from './core/review/quality/agreementFigures';

const send = (m: object) => process.send?.(m);
const controller = new AbortController();
let role: 'job' | 'saver' | undefined;
let saverHandler: ((r: EditSaverRequest) => void) | undefined;

function runRequest(request: JobRequest): void {
  runJob(request, controller.signal, (p) => send({ type: 'progress', ...p }))
    .then((result) => send({ type: 'done', result }))
    .catch((e: Error) =>
      send({
        type: 'error',
        cancelled: controller.signal.aborted,
        message: e instanceof UserError ? e.message : `${e.name}: ${e.message}`,
      }),
    );
}

if (process.send) {
  listenToParent(
    () => controller.abort(),
    (m) => {
      const message = m as {
        type?: string;
        request?: JobRequest;
        dbFile?: string;
        buildId?: number;
        input?: RaterAgreementInput;
      };
      if (role === 'saver') saverHandler?.(m as EditSaverRequest);
      else if (role === undefined && message.type === 'run' && message.request) {
        role = 'job';
        runRequest(message.request);
      } else if (role === undefined && message.type === 'serve-edits' && message.dbFile) {
        role = 'saver';
        serveEdits(message.dbFile, (handler) => (saverHandler = handler), send);
      } else if (
        role === undefined &&
        message.type === 'diversity' &&
        message.dbFile &&
        typeof message.buildId === 'number'
      ) {
        role = 'job';
        diversityOfFile(message.dbFile, message.buildId)
          .then((result) => send({ type: 'done', result }))
          .catch((e: Error) => send({ type: 'error', message: `${e.name}: ${e.message}` }));
      } else if (role === undefined && message.type === 'agreement' && message.input) {
        role = 'job';
        try {
          send({ type: 'done', result: raterAgreementFigures(message.input) });
        } catch (e) {
          send({ type: 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
        }
      }
    },
  );
  // Kept alive by its channel until the parent ends it: exiting on its own could drop the last
  // message unsent, or the saver's next request.
  process.channel?.ref();
}
