// Unpacks blobs in a worker thread while the main thread works on something else: a build asks for
// the next block's file versions before it anchors the comments of this one, and on two cores the
// decompression (a fifth of the diff reads at 100k examples) then costs the main thread nothing but
// the copies in and out. Without the worker bundle beside this one (or with useWorker false) the
// blobs come back packed and BlobReader unpacks them where they are read; the texts are the same.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { BlobDecodeReply, BlobDecodeRequest } from './blobDecodeWorker';
import { baseCodec, type StoredBlob } from './diffText';

export const BLOB_DECODE_WORKER_FILE = 'blob-decode-worker.js';

export class BlobDecodePool {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: (texts: string[]) => void; reject: (e: Error) => void }>();
  /** Requests the worker answered (for tests and benchmarks). */
  workerRequests = 0;

  constructor(useWorker = true) {
    const file = path.join(__dirname, BLOB_DECODE_WORKER_FILE);
    if (!useWorker || !existsSync(file)) return;
    this.worker = new Worker(file);
    this.worker.on('message', ({ seq, texts, error }: BlobDecodeReply) => {
      const w = this.waiting.get(seq);
      this.waiting.delete(seq);
      this.workerRequests++;
      if (texts) w?.resolve(texts);
      else w?.reject(new Error(`blob decode worker: ${error}`));
    });
    this.worker.on('error', (e) => this.failAll(new Error(`blob decode worker failed: ${e.message}`)));
    // Killed without an error event (out of memory, say): its requests would never come back.
    this.worker.on('exit', (code) => this.failAll(new Error(`blob decode worker stopped (exit code ${code})`)));
  }

  /**
   * The same blobs with `unpacked` set, by id. The packed bytes go to the worker (transferred, not
   * copied); without a worker they are returned as they are.
   */
  async unpack(blobs: Map<string, StoredBlob>): Promise<Map<string, StoredBlob>> {
    if (!this.worker || blobs.size === 0) return blobs;
    const ids = [...blobs.keys()];
    const request: BlobDecodeRequest = {
      seq: this.seq++,
      codecs: ids.map((id) => baseCodec(String(blobs.get(id)!.codec))),
      bytes: ids.map((id) => blobs.get(id)!.bytes as Uint8Array),
    };
    const texts = await new Promise<string[]>((resolve, reject) => {
      this.waiting.set(request.seq, { resolve, reject });
      this.worker!.postMessage(request, ownBuffers(request.bytes));
    });
    const out = new Map<string, StoredBlob>();
    ids.forEach((id, i) => out.set(id, { ...blobs.get(id)!, bytes: null, unpacked: texts[i] }));
    return out;
  }

  dispose(): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}

/** The buffers that each array is the whole of (sql.js copies every blob into its own): those move; any other is copied. */
function ownBuffers(arrays: readonly Uint8Array[]): ArrayBuffer[] {
  const own = new Set<ArrayBuffer>();
  for (const a of arrays) {
    const b = a.buffer as ArrayBuffer;
    if (a.byteOffset === 0 && a.byteLength === b.byteLength) own.add(b);
  }
  return [...own];
}
