// Runs a job in a worker thread under a cancellable progress notification.
import * as vscode from 'vscode';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { JobRequest, JobResult } from '../../core/jobs';
import { ContextKeys } from '../ids/contextKeys';

export class JobCancelled extends Error {}

let running = 0;

export async function runInWorker(extensionPath: string, title: string, req: JobRequest, log: vscode.LogOutputChannel): Promise<JobResult> {
  running++;
  void vscode.commands.executeCommand('setContext', ContextKeys.busy, true);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => new Promise<JobResult>((resolve, reject) => {
        const worker = new Worker(path.join(extensionPath, 'dist', 'worker.js'), { workerData: req });
        const cancel = token.onCancellationRequested(() => {
          log.info(`${title}: cancelling`);
          worker.postMessage({ type: 'cancel' });
        });
        worker.on('message', (m: { type: string; message?: string; log?: boolean; result?: JobResult; cancelled?: boolean }) => {
          if (m.type === 'progress') {
            if (m.log) log.info(`${title}: ${m.message}`);
            else {
              progress.report({ message: m.message });
              log.debug(`${title}: ${m.message}`);
            }
          } else if (m.type === 'done') {
            resolve(m.result!);
            void worker.terminate();
          } else if (m.type === 'error') {
            reject(m.cancelled ? new JobCancelled(`${title} cancelled`) : new Error(m.message));
            void worker.terminate();
          }
        });
        worker.on('error', reject);
        // terminate() after done/error exits with code 1; by then the promise has settled.
        worker.on('exit', (code) => {
          cancel.dispose();
          reject(new Error(`${title}: worker exited with code ${code}`));
        });
      }),
    );
  } finally {
    if (--running === 0) void vscode.commands.executeCommand('setContext', ContextKeys.busy, false);
  }
}
