// Runs a job in a process of its own (dist/worker.js, forked) under a cancellable progress
// notification. A process rather than a worker thread: it starts on huge pages where that helps
// (core/process/hugePages.ts), a rebuild's 1.5 GB never count against the extension host, and its
// page faults and collections do not contend with the host's own.
import * as vscode from 'vscode';
import { fork } from 'node:child_process';
import path from 'node:path';
import type { JobRequest, JobResult } from '../../core/jobs';
import { currentPlatform, hugePagesTunables } from '../../core/process/hugePages';
import { CANCEL_MESSAGE } from '../../core/process/parentLink';
import { ContextKeys } from '../ids/contextKeys';

export class JobCancelled extends Error {}

let running = 0;

type JobMessage = { type: string; message?: string; log?: boolean; result?: JobResult; cancelled?: boolean };

export async function runJobProcess(extensionPath: string, title: string, req: JobRequest, log: vscode.LogOutputChannel): Promise<JobResult> {
  running++;
  void vscode.commands.executeCommand('setContext', ContextKeys.busy, true);
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => new Promise<JobResult>((resolve, reject) => {
        const tunables = hugePagesTunables(currentPlatform());
        const child = fork(path.join(extensionPath, 'dist', 'worker.js'), [], {
          // ELECTRON_RUN_AS_NODE: in desktop VS Code process.execPath is the editor's own binary.
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...(tunables ? { GLIBC_TUNABLES: tunables } : {}) },
          // Not the host's flags: an --inspect port of the host's would clash.
          execArgv: [],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        });
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
        child.stderr?.setEncoding('utf8').on('data', (d: string) => log.warn(`${title}: ${d.trimEnd()}`));
        child.on('message', (m: JobMessage) => {
          if (m.type === 'progress') {
            if (m.log) log.info(`${title}: ${m.message}`);
            else {
              progress.report({ message: m.message });
              log.debug(`${title}: ${m.message}`);
            }
          } else if (m.type === 'done') settle(() => resolve(m.result!));
          else if (m.type === 'error') settle(() => reject(m.cancelled ? new JobCancelled(`${title} cancelled`) : new Error(m.message)));
        });
        child.on('error', (e) => settle(() => reject(e)));
        child.on('exit', (code, signal) => settle(() => reject(new Error(`${title}: job process exited (${signal ?? `code ${code}`}) before finishing`))));
        child.send({ type: 'run', request: req });
        log.debug(`${title}: job process ${child.pid}${tunables ? ` with GLIBC_TUNABLES=${tunables}` : ''}`);
      }),
    );
  } finally {
    if (--running === 0) void vscode.commands.executeCommand('setContext', ContextKeys.busy, false);
  }
}
