// Worker thread entry (bundled as hunk-facts-worker.js beside each bundle): computes the facts of
// each batch it is sent and posts them back, the typed arrays transferred rather than copied.
import { parentPort } from 'node:worker_threads';
import { computeHunkFacts, type HunkFactsInput, type HunkFactsParams } from './hunkFacts';

export interface HunkFactsRequest {
  seq: number;
  params: HunkFactsParams;
  hunks: HunkFactsInput[];
}

parentPort?.on('message', ({ seq, params, hunks }: HunkFactsRequest) => {
  const batch = computeHunkFacts(params, hunks);
  const buffers = [batch.fingerprints, batch.keys, batch.hasKeys, batch.targetHits].map((a) => a.buffer as ArrayBuffer);
  parentPort?.postMessage({ seq, batch }, buffers);
});
