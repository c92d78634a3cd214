// Saves the session's small edits (labels, flag decisions, sealing) without the extension host's
// main thread ever writing the file: a saver process (dist/worker.js, forked: jobs/workerProcess.ts)
// opens the corpus (SMALL_EDITS_OPEN: read as it needs pages), applies the same edits and saves them
// (a journal record, or the whole file atomically). Edits that arrive while a save runs go together in
// the next one. The saver is stopped when idle, to give its memory back; a new one opens the saved file. Each save holds the corpus file's writer lock
// (core/ground/store/writerLock.ts); while another writer (a CLI fetch or build) holds it, the save waits,
// the edits stay pending here, and onWaiting says who it waits for.
import type { ChildProcess } from 'node:child_process';
import type { CorpusEdit, EditSaverReply, EditSaverRequest } from '../core/jobs/edits';
import { forkWorkerProcess } from './jobs/workerProcess';

/** How long an idle saver process (nothing pending) is kept for the next edit. */
const IDLE_MS = 30_000;

export class BackgroundSaver {
  private worker: ChildProcess | undefined;
  /** Edits applied in the session and not yet confirmed saved, oldest first; the first `sent` are with the worker. */
  private readonly unsaved: CorpusEdit[] = [];
  private sent = 0;
  private seq = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  constructor(
    private readonly workerFile: string,
    private readonly dbFile: string,
    private readonly onError: (message: string) => void,
    private readonly onWaiting: (message: string) => void = () => undefined,
  ) {}

  /** Edits not known to be in the file yet. */
  get pending(): number {
    return this.unsaved.length;
  }

  submit(edit: CorpusEdit): void {
    this.unsaved.push(edit);
    this.pump();
  }

  /** Resolves once every edit submitted so far is in the file; rejects if saving fails. */
  flush(): Promise<void> {
    if (this.unsaved.length === 0) return Promise.resolve();
    this.pump(); // after a failure, this retries with a fresh worker
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** flush, then stop the worker (its copy goes stale once anything else writes the file). */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.stop();
    }
  }

  private pump(): void {
    if (this.sent > 0 || this.unsaved.length === 0) return; // one request at a time
    clearTimeout(this.idleTimer);
    const worker = (this.worker ??= this.start());
    this.sent = this.unsaved.length;
    const request: EditSaverRequest = { seq: ++this.seq, edits: this.unsaved.slice(0, this.sent) };
    worker.send(request);
  }

  private start(): ChildProcess {
    const { child: worker } = forkWorkerProcess(this.workerFile);
    worker.send({ type: 'serve-edits', dbFile: this.dbFile });
    worker.on('message', (reply: EditSaverReply) => {
      if (reply.seq !== this.seq) return;
      if (reply.type === 'waiting') return this.onWaiting(reply.message);
      if (reply.type === 'failed') return this.fail(reply.message);
      this.unsaved.splice(0, this.sent);
      this.sent = 0;
      if (this.unsaved.length > 0) return this.pump();
      for (const w of this.waiters.splice(0)) w.resolve();
      this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
    });
    worker.on('error', (e) => this.fail(e.message));
    worker.on('exit', (code, signal) => {
      if (this.worker === worker) this.fail(`the saver process stopped (${signal ?? `exit code ${code}`})`); // not stopped by us
    });
    return worker;
  }

  /** The worker's copy may differ from the file now: drop it; the unsaved edits go to a fresh one on the next flush or edit. */
  private fail(message: string): void {
    this.stop();
    this.onError(message);
    for (const w of this.waiters.splice(0)) w.reject(new Error(`could not save ${this.dbFile}: ${message}`));
  }

  private stop(): void {
    clearTimeout(this.idleTimer);
    this.sent = 0;
    this.worker?.kill();
    this.worker = undefined;
  }
}
