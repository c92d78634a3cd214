// verify --reproduce: rebuild from the stored records into a scratch copy and compare corpus hashes.
// The rebuild reads the flag decisions the build recorded, not today's: a flag confirmed since is an
// input of the next build, not a difference in this one.
import { CorpusStore } from '../../ground/store/corpusStore';
import { runBuild, type BuildProgress } from '../../build/stages/runBuild';
import { requireBuild } from '../../review/inspect/groups';
import { flagDecisionsOfBuild } from '../../build/flags/flagDecisions';

export type ReproduceResult =
  | { clean: true; buildId: number; corpusHash: string }
  | { clean: false; buildId: number; expected: string; actual: string; firstDifference: string };

/** `build`: the build whose corpus hash the rebuild must give (verify --build v3); default the latest. */
export async function verifyReproduce(
  store: CorpusStore,
  signal?: AbortSignal,
  onProgress?: (p: BuildProgress) => void,
  build?: number,
): Promise<ReproduceResult> {
  const buildId = build ?? requireBuild(store);
  const stored = store.get<{ corpus_hash: string; config_hash: string }>(
    'SELECT corpus_hash, config_hash FROM builds WHERE id = ?',
    [buildId],
  )!;
  const original = snapshot(store, buildId);
  const bytes = store.export();
  const scratch = await CorpusStore.fromBytes(store.file, bytes, { reserveBytes: Math.min(bytes.length, 1 << 30) });
  try {
    const flagDecisions = flagDecisionsOfBuild(store, buildId);
    const rebuilt = await runBuild(scratch, { signal, onProgress, flagDecisions });
    if (rebuilt.corpusHash === stored.corpus_hash) return { clean: true, buildId, corpusHash: stored.corpus_hash };
    const again = snapshot(scratch, rebuilt.buildId);
    return {
      clean: false,
      buildId,
      expected: stored.corpus_hash,
      actual: rebuilt.corpusHash,
      firstDifference: firstDifference(original, again),
    };
  } finally {
    scratch.close();
  }
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
