import { strict as assert } from 'node:assert';
import { BlobDecodePool } from './blobDecodePool';
import { packBlob, type StoredBlob } from './diffText';

function viewInLargerBuffer(bytes: Uint8Array): Uint8Array {
  const larger = new Uint8Array(bytes.length + 3);
  larger.set(bytes, 3);
  return larger.subarray(3);
}

/** Blobs of every codec the store writes: whole versions and deltas, brotli and uncompressed. */
function blobs(): { rows: Map<string, StoredBlob>; texts: Map<string, string> } {
  const rows = new Map<string, StoredBlob>();
  const texts = new Map<string, string>();
  for (let i = 0; i < 300; i++) {
    const text = `line ${i}\r\n\tnaïve 𝄞 ${'x'.repeat(i * 7)}\n`;
    const codec = ['br5', 'br5-delta', 'none-delta', 'deflate'][i % 4];
    const packed = packBlob(codec.replace(/-delta$/, ''), Buffer.from(text, 'utf8'));
    // sql.js gives each blob an array of its own; one here is a view into a larger buffer instead.
    const bytes = i === 7 ? viewInLargerBuffer(packed) : new Uint8Array(packed);
    rows.set(`id${i}`, { codec, bytes, base: codec.endsWith('-delta') ? 'some-base' : null });
    texts.set(`id${i}`, text);
  }
  return { rows, texts };
}

describe('BlobDecodePool', () => {
  it('unpacks in the worker thread what BlobReader would unpack, keeping codec and base', async () => {
    const { rows, texts } = blobs();
    const pool = new BlobDecodePool();
    try {
      const first = await pool.unpack(rows);
      const second = await pool.unpack(blobs().rows);
      assert.equal(pool.workerRequests, 2, 'both requests went to the worker');
      for (const out of [first, second]) {
        assert.deepEqual([...out.keys()], [...texts.keys()]);
        for (const [id, row] of out) {
          assert.equal(row.unpacked, texts.get(id), id);
          assert.equal(row.codec, rows.get(id)!.codec);
          assert.equal(row.base, rows.get(id)!.base);
        }
      }
    } finally {
      pool.dispose();
    }
  });

  it('names a blob it cannot unpack in the rejection', async () => {
    const pool = new BlobDecodePool();
    try {
      const bad = new Map<string, StoredBlob>([['x', { codec: 'zstd', bytes: new Uint8Array([1, 2]), base: null }]]);
      await assert.rejects(pool.unpack(bad), /blob decode worker: unknown blob codec "zstd"/);
    } finally {
      pool.dispose();
    }
  });

  it('without the worker, returns the rows packed, for BlobReader to unpack where they are read', async () => {
    const { rows } = blobs();
    const pool = new BlobDecodePool(false);
    const out = await pool.unpack(rows);
    assert.equal(out, rows);
    assert.equal(pool.workerRequests, 0);
  });
});
