// verify --reproduce: rebuild a build from its own recorded inputs (its effective config, the flag
// decisions it read; the records the file holds now) into a scratch copy, and compare what each would
// publish, record by record. A flag confirmed since is an input of the next build, not a difference.
import { CorpusStore } from '../../ground/store/corpusStore';
import { runBuild, type BuildProgress } from '../../build/stages/runBuild';
import { recordedConfig } from '../../build/stages/loadCorpus';
import { blobText, recordManifest, type RecordEntry } from '../../build/records/buildRecords';
import { requireBuild } from '../../review/inspect/groups';
import { tagNamesByBuild } from '../versions/tags';
import { flagDecisionsOfBuild } from '../../build/flags/flagDecisions';

/** A kept example whose published record the rebuild would change: where it is, and which fields. */
export interface RecordDifference {
  org: string;
  change: number;
  file: string;
  line: number | null;
  /** `left`: the rebuild would not publish it; `entered`: only the rebuild would; else the fields that differ. */
  fields: string[] | 'left' | 'entered';
}

export type ReproduceResult = {
  buildId: number;
  /** False for a build written before builds recorded their config: rebuilt with the config stored now. */
  configRecorded: boolean;
  /** The build's tags: their exports are frozen files, unaffected by any difference. */
  tags: string[];
} & (
  | { clean: true; corpusHash: string }
  | {
      clean: false;
      expected: string;
      actual: string;
      differences: RecordDifference[];
      /** When no record differs (or the build stored none): where else the rebuild differs. */
      firstDifference: string;
    }
);

/** `build`: the build whose corpus hash the rebuild must give (verify --build v3); default the latest. */
export async function verifyReproduce(
  store: CorpusStore,
  signal?: AbortSignal,
  onProgress?: (p: BuildProgress) => void,
  build?: number,
): Promise<ReproduceResult> {
  const buildId = build ?? requireBuild(store);
  const stored = store.get<{ corpus_hash: string }>('SELECT corpus_hash FROM builds WHERE id = ?', [buildId])!;
  const config = recordedConfig(store, buildId);
  const about = { buildId, configRecorded: config !== undefined, tags: tagNamesByBuild(store).get(buildId) ?? [] };
  const original = snapshot(store, buildId);
  const bytes = store.export();
  const scratch = await CorpusStore.fromBytes(store.file, bytes, { reserveBytes: Math.min(bytes.length, 1 << 30) });
  try {
    const flagDecisions = flagDecisionsOfBuild(store, buildId);
    const rebuilt = await runBuild(scratch, { signal, onProgress, config, flagDecisions });
    if (rebuilt.corpusHash === stored.corpus_hash) return { ...about, clean: true, corpusHash: stored.corpus_hash };
    return {
      ...about,
      clean: false,
      expected: stored.corpus_hash,
      actual: rebuilt.corpusHash,
      differences: recordDifferences(store, buildId, scratch, rebuilt.buildId),
      firstDifference: firstDifference(original, snapshot(scratch, rebuilt.buildId)),
    };
  } finally {
    scratch.close();
  }
}

/** Every kept example whose published record differs between build `a` of `sa` and build `b` of `sb`. */
export function recordDifferences(sa: CorpusStore, a: number, sb: CorpusStore, b: number): RecordDifference[] {
  const before = recordManifest(sa, a);
  const after = recordManifest(sb, b);
  if (!before || !after) return [];
  const byKey = (m: RecordEntry[]) => new Map(m.map((e) => [e.key, e.sha256]));
  const [was, now] = [byKey(before), byKey(after)];
  const out: RecordDifference[] = [];
  for (const key of [...new Set([...was.keys(), ...now.keys()])].sort()) {
    const [x, y] = [was.get(key), now.get(key)];
    if (x === y) continue;
    const old = x === undefined ? undefined : (JSON.parse(blobText(sa, x)) as Record<string, unknown>);
    const neu = y === undefined ? undefined : (JSON.parse(blobText(sb, y)) as Record<string, unknown>);
    const where = (old ?? neu)!;
    out.push({
      org: String(where.org),
      change: Number(where.change),
      file: String(where.path),
      line: lineOf(key, `${String(where.org)}/${Number(where.change)}/`),
      fields: !neu ? 'left' : !old ? 'entered' : fieldsThatDiffer(old, neu),
    });
  }
  return out;
}

/** The fields of two records that differ; a comment's field by its index (`comments[1].message`). */
function fieldsThatDiffer(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
    const [ca, cb] = [a[k], b[k]];
    if (k === 'comments' && Array.isArray(ca) && Array.isArray(cb) && ca.length === cb.length) {
      ca.forEach((c, i) => out.push(...fieldsThatDiffer(c, cb[i]).map((f) => `comments[${i}].${f}`)));
    } else out.push(k);
  }
  return out;
}

/** The hunk's first line at patch set N, from an example key `org/change/ps/line/path` (exampleKey). */
function lineOf(key: string, orgAndChange: string): number | null {
  if (!key.startsWith(orgAndChange)) return null;
  const [, line] = key.slice(orgAndChange.length).split('/', 2);
  return /^\d+$/.test(line ?? '') ? Number(line) : null;
}

/** example key → what identifies it: its decision and texts. */
function snapshot(store: CorpusStore, buildId: number): Map<string, string> {
  const m = new Map<string, string>();
  store.each(
    "SELECT unit_key, rule FROM decisions WHERE build_id = ? AND unit IN ('hunks', 'examples')",
    [buildId],
    (r) => {
      m.set(String(r.unit_key), `rule ${r.rule}`);
    },
  );
  store.each('SELECT example_key, before_text, after_text, window FROM examples WHERE build_id = ?', [buildId], (r) => {
    const k = String(r.example_key);
    m.set(
      k,
      `${m.get(k) ?? 'rule ?'}, window ${r.window}, before ${JSON.stringify(r.before_text).slice(0, 60)}, after ${JSON.stringify(r.after_text).slice(0, 60)}`,
    );
  });
  return m;
}

function firstDifference(a: Map<string, string>, b: Map<string, string>): string {
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  for (const k of keys) {
    const x = a.get(k);
    const y = b.get(k);
    if (x !== y) return `${k}: stored build has ${x ?? 'nothing'}; rebuild has ${y ?? 'nothing'}`;
  }
  return 'examples are identical; the difference is in comment or change decisions';
}
