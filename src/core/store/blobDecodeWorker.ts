// Worker thread entry (bundled as blob-decode-worker.js beside each bundle): unpacks the blobs it is
// sent (brotli and the like, src/core/store/diffText.ts) and posts their UTF-8 texts back, so a build's
// decompression runs beside its main thread (blobDecodePool.ts).
import { parentPort } from 'node:worker_threads';
import { unpackBlob } from './diffText';

export interface BlobDecodeRequest {
  seq: number;
  /** Each blob's codec without its "-delta" suffix: what unpackBlob takes. */
  codecs: string[];
  bytes: Uint8Array[];
}

export interface BlobDecodeReply {
  seq: number;
  texts?: string[];
  error?: string;
}

parentPort?.on('message', ({ seq, codecs, bytes }: BlobDecodeRequest) => {
  try {
    const texts = codecs.map((codec, i) => unpackBlob(codec, bytes[i]).toString('utf8'));
    parentPort?.postMessage({ seq, texts } satisfies BlobDecodeReply);
  } catch (e) {
    parentPort?.postMessage({ seq, error: e instanceof Error ? e.message : String(e) } satisfies BlobDecodeReply);
  }
});
