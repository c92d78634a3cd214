// Diversity per organization × window of a build: on the original kept comments (a kept comment of a
// kept example, each comment once), and on the judge's rewrites of those comments when the file holds
// any (one set per rewrite mode, the rewrite texts only: CuREV+'s whole set would add the high-quality
// originals it leaves as written).
import { CorpusStore } from '../../ground/store/corpusStore';
import { commentKey, commentKeySql } from '../../build/stages/decisionKeys';
import { readRewrites } from '../../build/judgments/judgmentStore';
import type { RewriteMode } from '../../build/judgments/types';
import { diversityMetrics, type DiversityMetrics, type DiversityOptions } from './metrics';
import { SELF_BLEU_METHOD, SELF_BLEU_SAMPLE } from './selfBleu';

export interface DiversitySet {
  org: string;
  /** null: examples outside every window. */
  window: string | null;
  /** 'original', or the rewrite mode ('curev', 'curev+'). */
  source: string;
  metrics: DiversityMetrics;
}

export interface DiversityReport {
  build: number;
  tokenization: string;
  entropyLogBase: 2;
  selfBleu: { method: string; sample: number; seed: number };
  sets: DiversitySet[];
}

export const TOKENIZATION =
  'lowercased word tokens: maximal runs of Unicode letters, digits and _ (punctuation and apostrophes split)';

export function diversityReport(store: CorpusStore, buildId: number, opts: DiversityOptions = {}): DiversityReport {
  const groups = new Map<string, { org: string; window: string | null; texts: string[]; keys: string[] }>();
  // In change and comment order, so the seeded Self-BLEU sample picks the same comments in every file.
  store.each(
    `SELECT DISTINCT h.org, e.window, c.number, cm.gerrit_id, cm.message
     FROM example_comments x JOIN examples e ON e.id = x.example_id JOIN comments cm ON cm.id = x.comment_id
     JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE e.build_id = ? AND e.rule IS NULL AND d.rule = 'kept'
     ORDER BY h.org, e.window, c.number, cm.gerrit_id`,
    [buildId],
    (r) => {
      const org = String(r.org);
      const window = r.window === null ? null : String(r.window);
      const id = `${org}\u0000${window ?? ''}`;
      const g = groups.get(id) ?? { org, window, texts: [], keys: [] };
      g.texts.push(String(r.message));
      g.keys.push(commentKey(org, Number(r.number), String(r.gerrit_id)));
      groups.set(id, g);
    },
  );
  const modes = hasTable(store, 'comment_rewrites')
    ? store.all<{ mode: RewriteMode }>('SELECT DISTINCT mode FROM comment_rewrites ORDER BY mode').map((r) => r.mode)
    : [];
  const rewrites = new Map(modes.map((mode) => [mode, readRewrites(store, { mode })]));
  const sets: DiversitySet[] = [];
  // Windows in date order (pilot, train, dev, test), examples outside every window last.
  const rank = new Map(
    store.all<{ name: string }>('SELECT name FROM windows ORDER BY from_date').map((w, i) => [w.name, i]),
  );
  const windowRank = (w: string | null) => (w === null ? Infinity : (rank.get(w) ?? rank.size));
  const ordered = [...groups.values()].sort((a, b) =>
    a.org < b.org ? -1 : a.org > b.org ? 1 : windowRank(a.window) - windowRank(b.window),
  );
  for (const g of ordered) {
    sets.push({ org: g.org, window: g.window, source: 'original', metrics: diversityMetrics(g.texts, opts) });
    for (const mode of modes) {
      const perMode = rewrites.get(mode)!;
      const texts = g.keys.flatMap((k) => (perMode.has(k) ? [perMode.get(k)!.text] : []));
      if (texts.length)
        sets.push({ org: g.org, window: g.window, source: mode, metrics: diversityMetrics(texts, opts) });
    }
  }
  return {
    build: buildId,
    tokenization: TOKENIZATION,
    entropyLogBase: 2,
    selfBleu: { method: SELF_BLEU_METHOD, sample: opts.sample ?? SELF_BLEU_SAMPLE, seed: opts.seed ?? 0 },
    sets,
  };
}

function hasTable(store: CorpusStore, name: string): boolean {
  return store.get("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?", [name]) !== undefined;
}

/** The report of a corpus file on disk: what the extension's worker process computes for the funnel report. */
export async function diversityOfFile(
  dbFile: string,
  buildId: number,
  opts: DiversityOptions = {},
): Promise<DiversityReport> {
  const store = await CorpusStore.open(dbFile);
  try {
    return diversityReport(store, buildId, opts);
  } finally {
    store.close();
  }
}
