// A funnel report part computed in a worker process (dist/worker.js): the diversity ({type:
// 'diversity', dbFile, buildId}) and the agreement among all raters ({type: 'agreement', input}). On a
// large corpus each takes seconds, which the extension host's thread must not spend. One result is
// kept per key (what it depends on); a newer request replaces it and stops the worker still computing
// the old one, so a day of labelling with the page open runs one worker at a time, not one per label.
import * as vscode from 'vscode';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { forkWorkerProcess } from '../jobs/workerProcess';

type Reply<T> = { type?: string; result?: T; message?: string };

/** The rejection of a request a newer one replaced: nobody waits for it, so nobody shows it. */
export class Superseded extends Error {}

export class WorkerReport<T> implements vscode.Disposable {
  private last: { key: string; report: Promise<T>; stop: () => void } | undefined;
  private readonly running = new Set<ChildProcess>();

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
    /** The part's name in the log and in errors ("diversity", "agreement"). */
    private readonly name: string,
  ) {}

  /** `key` names what the result depends on: a new key computes again, sending `request()` to a new worker. */
  of(key: string, request: () => object): Promise<T> {
    if (this.last?.key !== key) {
      this.last?.stop();
      const { report, stop } = this.compute(request());
      this.last = { key, report, stop };
      report.catch(() => this.last?.report === report && (this.last = undefined)); // a failure is not kept
    }
    return this.last.report;
  }

  private compute(request: object): { report: Promise<T>; stop: () => void } {
    let stop = () => {};
    const report = new Promise<T>((resolve, reject) => {
      const { child } = forkWorkerProcess(path.join(this.extensionPath, 'dist', 'worker.js'), (text) =>
        this.log.warn(`${this.name}: ${text}`),
      );
      this.running.add(child);
      let settled = false;
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        this.running.delete(child);
        child.kill();
        f();
      };
      child.on('message', (m: Reply<T>) => {
        if (m.type === 'done' && m.result) settle(() => resolve(m.result!));
        else if (m.type === 'error') settle(() => reject(new Error(m.message ?? `the ${this.name} worker failed`)));
      });
      child.on('error', (e) => settle(() => reject(e)));
      child.on('exit', (code, signal) =>
        settle(() =>
          reject(new Error(`the ${this.name} worker exited (${signal ?? `code ${code}`}) before finishing`)),
        ),
      );
      stop = () => settle(() => reject(new Superseded(`the ${this.name} request was replaced by a newer one`)));
      child.send(request);
    });
    return { report, stop };
  }

  dispose(): void {
    for (const child of this.running) child.kill();
    this.running.clear();
  }
}
