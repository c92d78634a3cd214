// Runs a job in a process of its own (dist/worker.js, forked: workerProcess.ts says why) under a
// cancellable progress notification.
import * as vscode from 'vscode';
import path from 'node:path';
import type { JobRequest, JobResult } from '../../core/jobs/jobs';
import { CANCEL_MESSAGE } from '../../core/ground/process/parentLink';
import { forkWorkerProcess } from './workerProcess';
import { ContextKeys } from '../ids/contextKeys';
import { plainText } from '../plainText';

/** A job stopped from its progress notification: a cancellation, which registerCommand notes quietly. */
export class JobCancelled extends vscode.CancellationError {
  constructor(message: string) {
    super();
    this.message = message;
  }
}

let running = 0;

type JobMessage = { type: string; message?: string; log?: boolean; result?: JobResult; cancelled?: boolean };

export async function runJobProcess(
  extensionPath: string,
  title: string,
  req: JobRequest,
  log: vscode.LogOutputChannel,
): Promise<JobResult> {
  running++;
  void vscode.commands.executeCommand('setContext', ContextKeys.busy, true);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) =>
        new Promise<JobResult>((resolve, reject) => {
          const { child, tunables } = forkWorkerProcess(path.join(extensionPath, 'dist', 'worker.js'), (text) =>
            log.warn(`${title}: ${text}`),
          );
          let settled = false;
          const settle = (f: () => void) => {
            if (settled) return;
            settled = true;
            cancel.dispose();
            f();
            child.kill();
          };
          const cancel = token.onCancellationRequested(() => {
            log.info(`${title}: cancelling`);
            if (child.connected) child.send(CANCEL_MESSAGE);
          });
          child.on('message', (m: JobMessage) => {
            if (m.type === 'progress') {
              if (m.log) log.info(`${title}: ${m.message}`);
              else {
                progress.report({ message: plainText(m.message ?? '') }); // shown in a notification: host names, paths
                log.debug(`${title}: ${m.message}`);
              }
            } else if (m.type === 'done') settle(() => resolve(m.result!));
            else if (m.type === 'error')
              settle(() => reject(m.cancelled ? new JobCancelled(`${title} cancelled`) : new Error(m.message)));
          });
          child.on('error', (e) => settle(() => reject(e)));
          child.on('exit', (code, signal) =>
            settle(() =>
              reject(new Error(`${title}: job process exited (${signal ?? `code ${code}`}) before finishing`)),
            ),
          );
          child.send({ type: 'run', request: req });
          log.debug(`${title}: job process ${child.pid}${tunables ? ` with GLIBC_TUNABLES=${tunables}` : ''}`);
        }),
    );
  } finally {
    if (--running === 0) void vscode.commands.executeCommand('setContext', ContextKeys.busy, false);
  }
}
