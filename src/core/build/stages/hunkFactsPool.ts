// Computes HunkFacts for every hunk the comment stage forms, in one worker thread, overlapping the
// main thread's reading and anchoring of diffs. The worker's replies only arrive when the main thread
// yields (between pages of diffs), so a few batches are kept in flight to keep it busy meanwhile; at
// the end the main thread takes the batches not yet sent, so both cores finish at about the same
// time. Without the worker bundle beside this one (or with useWorker false) everything is computed
// on the calling thread; the results are the same either way.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  computeHunkFacts,
  unpackHunkFacts,
  type HunkFacts,
  type HunkFactsBatch,
  type HunkFactsInput,
  type HunkFactsParams,
} from './hunkFacts';
import type { HunkFactsRequest } from './hunkFactsWorker';

export const HUNK_FACTS_WORKER_FILE = 'hunk-facts-worker.js';
const BATCH_SIZE = 1000;
const MAX_IN_FLIGHT = 8;

export class HunkFactsPool {
  private readonly batches: HunkFactsInput[][] = [];
  private readonly results: (HunkFactsBatch | undefined)[] = [];
  /** Index of the first batch nobody has started. */
  private nextBatch = 0;
  private current: HunkFactsInput[] = [];
  private worker: Worker | undefined;
  private inFlight = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  /** Batches the worker computed (for tests and benchmarks). */
  workerBatches = 0;

  constructor(
    private readonly params: HunkFactsParams,
    useWorker = true,
  ) {
    const file = path.join(__dirname, HUNK_FACTS_WORKER_FILE);
    if (!useWorker || !existsSync(file)) return;
    this.worker = new Worker(file);
    this.worker.on('message', ({ seq, batch }: { seq: number; batch: HunkFactsBatch }) => {
      this.results[seq] = batch;
      this.batches[seq] = []; // the texts are no longer needed
      this.workerBatches++;
      this.inFlight--;
      this.pump();
      this.wake?.();
    });
    this.worker.on('error', (e) => {
      this.failure = new Error(`hunk facts worker failed: ${e.message}`);
      this.wake?.();
    });
    // Killed without an error event (out of memory, say): its batches would never come back.
    this.worker.on('exit', (code) => {
      if (this.inFlight === 0) return;
      this.failure ??= new Error(
        `hunk facts worker stopped (exit code ${code}) with ${this.inFlight} batches unfinished`,
      );
      this.wake?.();
    });
  }

  /** Queues one hunk; its facts come back at the same index from `finish`. */
  add(hunk: HunkFactsInput): void {
    this.current.push(hunk);
    if (this.current.length >= BATCH_SIZE) this.seal();
  }

  /** Every hunk's facts, in the order added. Stops the worker. */
  async finish(): Promise<HunkFacts[]> {
    if (this.current.length > 0) this.seal();
    try {
      // Take queued batches on this thread; yield after each so the worker's replies get through.
      while (this.nextBatch < this.batches.length) {
        const seq = this.nextBatch++;
        this.results[seq] = computeHunkFacts(this.params, this.batches[seq]);
        this.batches[seq] = [];
        if (this.worker) await new Promise<void>((resolve) => setImmediate(resolve));
      }
      while (this.inFlight > 0 && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.failure) throw this.failure;
    } finally {
      this.dispose();
    }
    return this.results.flatMap((batch) => unpackHunkFacts(batch as HunkFactsBatch, this.params.lshBands));
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private seal(): void {
    this.batches.push(this.current);
    this.current = [];
    this.pump();
  }

  private pump(): void {
    while (this.worker && this.inFlight < MAX_IN_FLIGHT && this.nextBatch < this.batches.length) {
      const seq = this.nextBatch++;
      const request: HunkFactsRequest = { seq, params: this.params, hunks: this.batches[seq] };
      this.inFlight++;
      this.worker.postMessage(request);
    }
  }
}
