// The one place that knows how a stored diff is laid out (docs/storage.md "Diffs and blobs").
//
// A diff is Gerrit's DiffInfo JSON for one file, patch set N against N + 1, fetched with
// context=ALL: both whole files. Stored inline, the same file version costs a whole file again in
// every diff that shows it (PS1→PS2's side B is PS2→PS3's side A). So a diff is kept as:
// - its two sides' texts (side A: the `ab` and `a` lines in order, joined by "\n"; side B: `ab` and
//   `b`), each a content-addressed, compressed row of `blobs`, stored once however many diffs show it;
//   a new side B is stored as its line edits over side A (the diff's own chunks), so a version costs
//   what changed in it, not the whole file again;
// - `diffs.structure`: the DiffInfo with every line list replaced by its line count (meta, change
//   type, header, skips and intraline edits stay as they came).
// joinDiff gives the stored JSON back byte for byte; a diff for which that does not hold (a line
// holding "\n", text that is not well-formed UTF-16, JSON not written by JSON.stringify) stays
// inline in `diffs.content`, as every diff did before (layout 'inline').
import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import type { SqlValue } from 'sql.js';
import type { SqlStore } from './sqlStore';

/** The codec new blobs are written with (bench/blob-codecs.ts and BENCHMARKS.md "Storage" chose it). */
export const BLOB_CODEC = 'br5';

/** Brotli codecs by name: 'br5' for file versions, 'br1' for chunks of lines (records; LineChunks). */
const BROTLI_QUALITY: Record<string, number> = { br5: 5, br1: 1 };

/** Compresses UTF-8 bytes with a named codec. */
export function packBlob(codec: string, bytes: Buffer): Buffer {
  if (codec === 'none') return bytes;
  if (codec === 'deflate') return deflateRawSync(bytes, { level: 6 });
  const quality = BROTLI_QUALITY[codec];
  if (quality === undefined) throw new Error(`unknown blob codec ${JSON.stringify(codec)}`);
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** The bytes a blob holds. Every codec ever written must stay readable here. */
export function unpackBlob(codec: string, bytes: Uint8Array): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (codec === 'none') return b;
  if (codec === 'deflate') return inflateRawSync(b);
  if (codec in BROTLI_QUALITY) return brotliDecompressSync(b);
  throw new Error(`unknown blob codec ${JSON.stringify(codec)}`);
}

export interface DiffSides {
  a: string;
  b: string;
  /** The DiffInfo JSON with each line list replaced by its length. */
  structure: string;
}

const LINE_KEYS = ['ab', 'a', 'b'] as const;

/** A UTF-16 surrogate without its pair (JSON's "\ud800" can make one; TextEncoder would make it U+FFFD). */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const isLines = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((l) => typeof l === 'string' && !l.includes('\n'));

/**
 * Splits stored DiffInfo JSON into its sides and structure, or undefined when joinDiff would not give
 * `json` back exactly (then the diff is stored inline).
 */
export function diffSides(json: string): DiffSides | undefined {
  let info: unknown;
  try {
    info = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof info !== 'object' || info === null || !Array.isArray((info as { content?: unknown }).content))
    return undefined;
  const a: string[] = [];
  const b: string[] = [];
  const content = (info as { content: unknown[] }).content.map((chunk) => {
    if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) return chunk;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(chunk)) {
      if ((LINE_KEYS as readonly string[]).includes(k) && isLines(v)) {
        for (const line of v) {
          if (k !== 'b') a.push(line);
          if (k !== 'a') b.push(line);
        }
        out[k] = v.length;
      } else {
        out[k] = v;
      }
    }
    return out;
  });
  const sides = { a: a.join('\n'), b: b.join('\n'), structure: JSON.stringify({ ...(info as object), content }) };
  if (LONE_SURROGATE.test(sides.a) || LONE_SURROGATE.test(sides.b)) return undefined; // UTF-8 cannot carry one
  return joinDiff(sides.structure, sides.a, sides.b) === json ? sides : undefined;
}

/** The stored DiffInfo JSON again, from its structure and its sides' texts. */
export function joinDiff(structure: string, a: string, b: string): string {
  return JSON.stringify(joinDiffInfo(structure, a.split('\n'), b.split('\n')));
}

/**
 * The stored DiffInfo as an object, from its structure and its sides' texts: JSON.parse of what
 * joinDiff gives, without writing the whole file as JSON and parsing it again (a build reads every
 * diff; docs/storage.md "Reading diffs back").
 */
export function joinDiffInfo(
  structure: string,
  aLines: readonly string[],
  bLines: readonly string[],
): { content: unknown[] } {
  const info = JSON.parse(structure) as { content: unknown[] };
  let ai = 0;
  let bi = 0;
  const take = (lines: readonly string[], from: number, n: number) => lines.slice(from, from + n);
  info.content = info.content.map((chunk) => {
    if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) return chunk;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(chunk)) {
      if (k === 'ab' && typeof v === 'number') {
        out[k] = take(aLines, ai, v);
        ai += v;
        bi += v;
      } else if (k === 'a' && typeof v === 'number') {
        out[k] = take(aLines, ai, v);
        ai += v;
      } else if (k === 'b' && typeof v === 'number') {
        out[k] = take(bLines, bi, v);
        bi += v;
      } else {
        out[k] = v;
      }
    }
    return out;
  });
  return info;
}

/** A text's blob id: the SHA-256 of its UTF-8 bytes, in hex. */
export function blobId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * How side B is made from side A's lines: [first, count] copies lines of A, a list of strings is lines
 * of its own. It is the diff itself (its `ab` and `b` chunks), so a version that differs from the one
 * before it by a few lines costs those lines, not the file again.
 */
export type DeltaOp = [number, number] | string[];

/** B's delta over A from the structure (line counts) and B's own lines. */
function deltaOf(structure: string, bText: string): DeltaOp[] {
  const bLines = bText.split('\n');
  const ops: DeltaOp[] = [];
  let ai = 0;
  let bi = 0;
  for (const chunk of (JSON.parse(structure) as { content: Record<string, unknown>[] }).content) {
    if (typeof chunk !== 'object' || chunk === null) continue;
    for (const [k, v] of Object.entries(chunk)) {
      if (typeof v !== 'number' || !(LINE_KEYS as readonly string[]).includes(k)) continue;
      if (k === 'ab') {
        const last = ops[ops.length - 1];
        if (last && typeof last[0] === 'number' && (last[0] as number) + (last[1] as number) === ai)
          (last as [number, number])[1] += v;
        else ops.push([ai, v]);
        ai += v;
        bi += v;
      } else if (k === 'a') {
        ai += v;
      } else if (v > 0) {
        ops.push(bLines.slice(bi, bi + v));
        bi += v;
      }
    }
  }
  return ops;
}

/** A version's lines from its base's lines and its delta (the strings are shared, not copied). */
function applyDelta(lines: readonly string[], ops: readonly DeltaOp[]): string[] {
  const out: string[] = [];
  for (const op of ops) {
    if (typeof op[0] === 'number')
      for (let i = op[0], end = op[0] + (op[1] as number); i < end; i++) out.push(lines[i]);
    else for (const line of op as string[]) out.push(line);
  }
  return out;
}

/**
 * A delta this small is stored uncompressed ('none-delta'): a brotli read costs about 20 µs whatever
 * its size, and compressing 512 bytes saves about 200 (bench/blob-codecs.ts; on the 100k generated
 * corpus: 35.7k of 79.6k deltas, 2 MB more in a 391 MB file, 0.7 s less reading them back).
 */
const RAW_DELTA_MAX_BYTES = 512;

/** A delta over a delta over …: at most this deep, then the version is stored whole (reads stay bounded). */
const MAX_DELTA_DEPTH = 16;

/**
 * Stores `text` once (a text already stored is not written again); returns its id. With `delta`, as
 * its difference from the base version (codec `<codec>-delta`, `base` naming it), when that is smaller.
 */
export function putBlob(store: SqlStore, text: string, delta?: { base: string; ops: DeltaOp[] }): string {
  const id = blobId(text);
  if (store.get('SELECT 1 AS x FROM blobs WHERE sha256 = ?', [id])) return id;
  const bytes = Buffer.from(text, 'utf8');
  const whole = packBlob(BLOB_CODEC, bytes);
  const baseDepth = delta ? store.scalar('SELECT depth FROM blobs WHERE sha256 = ?', [delta.base]) : undefined;
  if (delta && typeof baseDepth === 'number' && baseDepth < MAX_DELTA_DEPTH) {
    const raw = Buffer.from(JSON.stringify(delta.ops), 'utf8');
    const codec = raw.length <= RAW_DELTA_MAX_BYTES ? 'none' : BLOB_CODEC;
    const packed = packBlob(codec, raw);
    if (packed.length < whole.length) {
      insertBlob(store, id, `${codec}-delta`, packed, delta.base, baseDepth + 1);
      return id;
    }
  }
  insertBlob(store, id, BLOB_CODEC, whole, null, 0);
  return id;
}

/** A blobs row; its bytes in the store's pack when it has one to write to, else in the row. */
function insertBlob(store: SqlStore, id: string, codec: string, bytes: Buffer, base: string | null, depth: number) {
  const pack = store.blobPack.writable;
  store.run(
    'INSERT INTO blobs(sha256, codec, bytes, base, depth, pack_offset, pack_length) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [
      id,
      codec,
      pack ? EMPTY : bytes,
      base,
      depth,
      pack ? store.blobPack.append(bytes) : null,
      pack ? bytes.length : null,
    ],
  );
}
const EMPTY = new Uint8Array(0);

/** A blobs row as a reader needs it (pack_offset null: its bytes are in the row). */
export interface StoredBlob {
  codec: SqlValue;
  bytes: SqlValue;
  base: SqlValue;
  pack_offset: SqlValue;
  pack_length: SqlValue;
}

/** A blob's packed bytes, from its row or the store's pack (valid until the next read). */
export function storedBlobBytes(
  store: SqlStore,
  row: Pick<StoredBlob, 'bytes' | 'pack_offset' | 'pack_length'>,
): Uint8Array {
  return row.pack_offset === null
    ? (row.bytes as Uint8Array)
    : store.blobPack.read(Number(row.pack_offset), Number(row.pack_length));
}

/**
 * Reads blobs' texts, as lines (the text split on "\n", as a DiffInfo side is): what a diff is joined
 * from, and what a delta is applied to, so no version is joined into one string to be split again.
 * Side B is usually a delta over side A, read just before it, so the last few versions are kept.
 */
export class BlobReader {
  private readonly recent = new Map<string, readonly string[]>();

  constructor(private readonly store: SqlStore) {}

  /**
   * A blob's text split on "\n" (shared with later calls: never modify it); throws naming the id when
   * it is missing (a damaged file). `row`: the blob's row when the caller's query already joined it.
   */
  lines(id: string, row?: StoredBlob): readonly string[] {
    const hit = this.recent.get(id);
    if (hit !== undefined) return hit;
    row ??= this.store.get<StoredBlob>(
      'SELECT codec, bytes, base, pack_offset, pack_length FROM blobs WHERE sha256 = ?',
      [id],
    );
    if (!row) throw new Error(`blob ${id} is missing`);
    const codec = String(row.codec);
    const bytes = storedBlobBytes(this.store, row);
    let lines: readonly string[];
    if (codec === LINE_CODEC) return [lineOfChunk(id, row.base, bytes, (base) => this.lines(base))];
    if (codec.endsWith('-delta')) {
      if (row.base === null) throw new Error(`blob ${id} is a delta without a base`);
      const ops = JSON.parse(unpackBlob(codec.slice(0, -'-delta'.length), bytes).toString('utf8')) as DeltaOp[];
      lines = applyDelta(this.lines(String(row.base)), ops);
    } else {
      lines = unpackBlob(codec, bytes).toString('utf8').split('\n');
    }
    this.recent.set(id, lines);
    if (this.recent.size > 4) this.recent.delete(this.recent.keys().next().value as string);
    return lines;
  }
}

/**
 * Codec of a blob that is one line of another blob, `base` (a chunk of lines, LineChunks): its bytes
 * are the line's index in decimal. Read by schema 16 on.
 */
export const LINE_CODEC = 'line';

/** Whether a blob of this codec is read through others (a delta, a line of a chunk): BlobReader joins it. */
export const isDerivedCodec = (codec: string): boolean => codec === LINE_CODEC || codec.endsWith('-delta');

/** Line `bytes` (its index, in decimal) of chunk `base`; throws naming the blob when the row is damaged. */
function lineOfChunk(id: string, base: SqlValue, bytes: Uint8Array, chunk: (id: string) => readonly string[]) {
  const index = Number(Buffer.from(bytes).toString('latin1'));
  const lines = typeof base === 'string' ? chunk(base) : undefined;
  if (!lines || !Number.isSafeInteger(index) || index < 0 || index >= lines.length)
    throw new Error(`blob ${id} is damaged: no line ${index} in its chunk`);
  return lines[index];
}

/** A chunk of lines holds at most this many lines, or about this many bytes. */
const CHUNK_LINES = 128;
const CHUNK_BYTES = 256 * 1024;

/**
 * Stores short texts (one line each, no "\n": a build's published JSON records) content-addressed like
 * putBlob, but compressed together: each new text is a 'line' blob pointing into a chunk blob of up to
 * 128 of them, brotli quality 1. One record compressed alone costs 88 µs at a ratio of 0.42; in chunks
 * of 128, 9 µs at 0.26 (BENCHMARKS.md "Build: published records"). A text already stored is not
 * stored again, so a rebuild adds only the records that changed. Call flush() before reading them.
 */
export class LineChunks {
  private pending: { id: string; text: string }[] = [];
  private pendingBytes = 0;

  constructor(private readonly store: SqlStore) {}

  /** Stores `text` (no "\n") unless it is stored already; returns its blob id. */
  add(text: string): string {
    if (text.includes('\n')) throw new Error('a chunked line must not hold "\\n"');
    const id = blobId(text);
    if (this.pending.some((p) => p.id === id) || this.store.get('SELECT 1 AS x FROM blobs WHERE sha256 = ?', [id]))
      return id;
    this.pending.push({ id, text });
    this.pendingBytes += text.length;
    if (this.pending.length >= CHUNK_LINES || this.pendingBytes >= CHUNK_BYTES) this.flush();
    return id;
  }

  /** Writes the pending lines' chunk and their 'line' rows. */
  flush(): void {
    if (!this.pending.length) return;
    const text = this.pending.map((p) => p.text).join('\n');
    const chunk = blobId(text);
    if (!this.store.get('SELECT 1 AS x FROM blobs WHERE sha256 = ?', [chunk]))
      insertBlob(this.store, chunk, 'br1', packBlob('br1', Buffer.from(text, 'utf8')), null, 0);
    const insert = this.store.prepare('INSERT INTO blobs(sha256, codec, bytes, base, depth) VALUES (?, ?, ?, ?, 0)');
    // A chunk of one line is that line's own blob: its text, so its id.
    this.pending.forEach(
      (p, i) => p.id !== chunk && insert.run([p.id, LINE_CODEC, Buffer.from(String(i), 'latin1'), chunk]),
    );
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** What a diffs row stores for `content` (null: none, e.g. a fetch_error). */
export function diffColumns(
  store: SqlStore,
  content: string | null,
): {
  content: string | null;
  a: string | null;
  b: string | null;
  structure: string | null;
  layout: 'sides' | 'inline' | null;
} {
  if (content === null) return { content: null, a: null, b: null, structure: null, layout: null };
  const sides = diffSides(content);
  if (!sides) return { content, a: null, b: null, structure: null, layout: 'inline' };
  const a = putBlob(store, sides.a);
  const b = putBlob(store, sides.b, { base: a, ops: deltaOf(sides.structure, sides.b) });
  return { content: null, a, b, structure: sides.structure, layout: 'sides' };
}

/** Writes (or replaces) a diff; the fetch's one writer of diffs. */
export function writeDiff(
  store: SqlStore,
  d: {
    changeId: number;
    path: string;
    base: number;
    content: string | null;
    error: string | null;
    targetPath: string | null;
  },
): void {
  const c = diffColumns(store, d.content);
  store.run(
    `INSERT INTO diffs(change_id, path, ps_base, ps_target, content, fetch_error, target_path, a_sha256, b_sha256, structure, layout) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(change_id, path, ps_base) DO UPDATE SET ps_target = excluded.ps_target, content = excluded.content, fetch_error = excluded.fetch_error,
       target_path = excluded.target_path, a_sha256 = excluded.a_sha256, b_sha256 = excluded.b_sha256, structure = excluded.structure, layout = excluded.layout`,
    [d.changeId, d.path, d.base, d.base + 1, c.content, d.error, d.targetPath, c.a, c.b, c.structure, c.layout],
  );
}

/**
 * For a SELECT over `diffs` aliased `d`, with diffBlobJoins(d) in its FROM: the columns DiffTexts.read
 * and .of take, in this order, after the caller's own. The sides' blob rows come with the diff's, so
 * a scan of every diff costs no query per blob.
 */
export function diffContentColumns(d: string): string {
  const side = (s: string) => `${s}.codec, ${s}.bytes, ${s}.base, ${s}.pack_offset, ${s}.pack_length`;
  return `${d}.content, ${d}.structure, ${d}.a_sha256, ${d}.b_sha256, ${side(`${d}_a`)}, ${side(`${d}_b`)}`;
}

/** The joins diffContentColumns(d) reads from. */
export function diffBlobJoins(d: string): string {
  return `LEFT JOIN blobs ${d}_a ON ${d}_a.sha256 = ${d}.a_sha256 LEFT JOIN blobs ${d}_b ON ${d}_b.sha256 = ${d}.b_sha256`;
}

/** Columns per side in diffContentColumns. */
const SIDE_COLUMNS = 5;

/** Diffs' DiffInfo JSON, whatever their layout. One per scan: it keeps the last few versions read. */
export class DiffTexts {
  private readonly blobs: BlobReader;

  constructor(private readonly store: SqlStore) {
    this.blobs = new BlobReader(store);
  }

  /** From the values diffContentColumns selected (null: none stored). */
  of(values: readonly SqlValue[]): string | null {
    const stored = this.read(values);
    return stored === null || typeof stored === 'string' ? stored : JSON.stringify(stored);
  }

  /**
   * What a reader parses: a diff stored as sides, as its DiffInfo object (joinDiffInfo: no JSON round
   * trip); one stored inline, as its JSON text, which may not even be JSON; null: none stored. Blob reads
   * throw (a damaged file), so a caller can tell them from a diff it cannot parse.
   */
  read(values: readonly SqlValue[]): string | { content: unknown[] } | null {
    const [content, structure, a, b] = values;
    if (structure === null || structure === undefined)
      return content === null || content === undefined ? null : String(content);
    // A side whose blob row did not come with the diff's is looked up, and then named as missing.
    const joined = (at: number): StoredBlob | undefined => {
      const [codec, bytes, base, offset, length] = values.slice(at, at + SIDE_COLUMNS);
      return codec === null || codec === undefined
        ? undefined
        : { codec, bytes: bytes ?? null, base: base ?? null, pack_offset: offset ?? null, pack_length: length ?? null };
    };
    return joinDiffInfo(
      String(structure),
      this.blobs.lines(String(a), joined(4)),
      this.blobs.lines(String(b), joined(4 + SIDE_COLUMNS)),
    );
  }

  /** Of the diffs row `id` (null: none stored, or no such row). */
  byId(id: number): string | null {
    let row: SqlValue[] | undefined;
    this.store
      .prepare(`SELECT ${diffContentColumns('d')} FROM diffs d ${diffBlobJoins('d')} WHERE d.id = ?`)
      .eachArray([id], (r) => (row ??= r));
    return row ? this.of(row) : null;
  }
}

/** The DiffInfo JSON of the diffs row `id` (null: none stored, or no such row). */
export function diffContentById(store: SqlStore, id: number): string | null {
  return new DiffTexts(store).byId(id);
}

/**
 * Rewrites the diffs stored inline (by a tool before blobs, or by a test's own INSERT) into blobs, in
 * one transaction, at most `atMost` of them (the rest wait for a later save); CorpusStore.save calls it
 * first, so the file it writes holds them as blobs. Returns how many were rewritten. Byte for byte the
 * same JSON is read back, so builds, their corpus hash and verify --reproduce are unchanged, whichever
 * diffs have moved yet. Cheap when there are none: the partial index diffs_inline holds only such rows.
 */
export function moveInlineDiffsToBlobs(store: SqlStore, atMost = Infinity): number {
  if (atMost <= 0) return 0;
  if (!store.get('SELECT 1 AS x FROM diffs WHERE layout IS NULL AND content IS NOT NULL LIMIT 1')) return 0;
  let moved = 0;
  store.transaction(() => {
    const rows = store.all<{ id: number }>(
      'SELECT id FROM diffs WHERE layout IS NULL AND content IS NOT NULL ORDER BY id LIMIT ?',
      [Number.isFinite(atMost) ? atMost : -1],
    );
    for (const { id } of rows) {
      const content = store.scalar('SELECT content FROM diffs WHERE id = ?', [id]);
      const c = diffColumns(store, String(content));
      store.run('UPDATE diffs SET content = ?, a_sha256 = ?, b_sha256 = ?, structure = ?, layout = ? WHERE id = ?', [
        c.content,
        c.a,
        c.b,
        c.structure,
        c.layout,
        id,
      ]);
      if (c.layout === 'sides') moved++;
    }
  });
  return moved;
}
