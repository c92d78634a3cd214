// The funnel report's diversity, computed in a worker process (dist/worker.js, {type: 'diversity'}):
// on a large corpus it takes seconds, which the extension host's thread must not spend. One result is
// kept per file, build and rewrites (a judge run adds rewrites); a newer request replaces it.
import * as vscode from 'vscode';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { forkWorkerProcess } from '../jobs/workerProcess';
import type { DiversityReport } from '../../core/review/diversity/report';

type Reply = { type?: string; result?: DiversityReport; message?: string };

export class DiversityComputer implements vscode.Disposable {
  private last: { key: string; report: Promise<DiversityReport> } | undefined;
  private readonly running = new Set<ChildProcess>();

  constructor(
    private readonly extensionPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** `stamp` names what besides the build the report depends on (the rewrites): a new one computes again. */
  of(dbFile: string, buildId: number, stamp: string): Promise<DiversityReport> {
    const key = JSON.stringify([dbFile, buildId, stamp]);
    if (this.last?.key !== key) {
      const report = this.compute(dbFile, buildId);
      this.last = { key, report };
      report.catch(() => this.last?.report === report && (this.last = undefined)); // a failure is not kept
    }
    return this.last.report;
  }

  private compute(dbFile: string, buildId: number): Promise<DiversityReport> {
    return new Promise((resolve, reject) => {
      const { child } = forkWorkerProcess(path.join(this.extensionPath, 'dist', 'worker.js'), (text) =>
        this.log.warn(`diversity: ${text}`),
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
      child.on('message', (m: Reply) => {
        if (m.type === 'done' && m.result) settle(() => resolve(m.result!));
        else if (m.type === 'error') settle(() => reject(new Error(m.message ?? 'the diversity worker failed')));
      });
      child.on('error', (e) => settle(() => reject(e)));
      child.on('exit', (code, signal) =>
        settle(() => reject(new Error(`the diversity worker exited (${signal ?? `code ${code}`}) before finishing`))),
      );
      child.send({ type: 'diversity', dbFile, buildId });
    });
  }

  dispose(): void {
    for (const child of this.running) child.kill();
    this.running.clear();
  }
}
