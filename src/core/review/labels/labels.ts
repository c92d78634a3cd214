// Labels: does the rewrite answer its comment? Per rater, with shares and Cohen's κ between raters.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { cohensKappa } from '../../ground/stats/kappa';

// Re-exported: labels.test.ts checks κ on labels from here.
export { cohensKappa };

export const LABELS = ['answers', 'does_not', 'unsure'] as const;
export type Label = (typeof LABELS)[number];

export function setLabel(
  store: CorpusStore,
  exampleKey: string,
  rater: string,
  label: Label,
  now = new Date().toISOString(),
): void {
  store.run(
    `INSERT INTO labels(example_key, rater, label, labelled_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(example_key, rater) DO UPDATE SET label = excluded.label, labelled_at = excluded.labelled_at`,
    [exampleKey, rater, label, now],
  );
}

/** One rater's label of an example and when it was given; undefined: none. */
export function labelOf(
  store: CorpusStore,
  exampleKey: string,
  rater: string,
): { label: Label; at: string } | undefined {
  const row = store.get<{ label: Label; labelled_at: string }>(
    'SELECT label, labelled_at FROM labels WHERE example_key = ? AND rater = ?',
    [exampleKey, rater],
  );
  return row ? { label: row.label, at: row.labelled_at } : undefined;
}

/** Removes one rater's label of an example (undoing the first label given to it). */
export function clearLabel(store: CorpusStore, exampleKey: string, rater: string): void {
  store.run('DELETE FROM labels WHERE example_key = ? AND rater = ?', [exampleKey, rater]);
}

export interface RaterShare {
  rater: string;
  total: number;
  counts: Record<Label, number>;
  /** answers / total. */
  answersShare: number;
}

export interface RaterAgreement {
  raterA: string;
  raterB: string;
  both: number;
  kappa: number | null;
}

export function labelReport(store: CorpusStore): { raters: RaterShare[]; agreement: RaterAgreement[] } {
  const rows = store.all<{ example_key: string; rater: string; label: Label }>(
    'SELECT example_key, rater, label FROM labels ORDER BY rater, example_key',
  );
  const byRater = new Map<string, Map<string, Label>>();
  for (const r of rows) {
    if (!byRater.has(r.rater)) byRater.set(r.rater, new Map());
    byRater.get(r.rater)!.set(r.example_key, r.label);
  }
  const raters: RaterShare[] = [...byRater].map(([rater, m]) => {
    const counts = { answers: 0, does_not: 0, unsure: 0 } as Record<Label, number>;
    for (const l of m.values()) counts[l]++;
    return { rater, total: m.size, counts, answersShare: m.size ? counts.answers / m.size : 0 };
  });
  const names = [...byRater.keys()];
  const agreement: RaterAgreement[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = byRater.get(names[i])!;
      const b = byRater.get(names[j])!;
      const pairs: [Label, Label][] = [];
      for (const [key, la] of a) {
        const lb = b.get(key);
        if (lb) pairs.push([la, lb]);
      }
      agreement.push({ raterA: names[i], raterB: names[j], both: pairs.length, kappa: cohensKappa(pairs) });
    }
  }
  return { raters, agreement };
}
