// Agreement among all raters of a kind at once (Fleiss' κ, Krippendorff's α), beside the pairwise κ:
// for the human raters, the model raters, and both together, on one label, each figure with its seeded
// bootstrap 95% interval. Each value is a category of its own ("unsure" too); a rater who did not rate
// an item is a missing rating. The items bootstrapped are those the group rated twice or more, the
// only ones either figure reads. docs/agreement.md says what each figure is.
import { withIntervals, BOOTSTRAP_RESAMPLES, type Figure } from '../../ground/stats/bootstrap';
import { countTable, fleissKappa, krippendorffAlpha, type Level } from '../../ground/stats/manyRaters';
import type { RaterKind } from '../labels/importLabels';

export const RATER_GROUPS = ['humans', 'models', 'all'] as const;
export type RaterGroup = (typeof RATER_GROUPS)[number];

export interface Rater<V> {
  name: string;
  kind: RaterKind;
  /** Item key → the rater's value. */
  ratings: ReadonlyMap<string, V>;
}

export interface LabelSpec<V> {
  /** What is rated, as the reports name it ("label", "civility", "type Bugfix", "relevance"). */
  label: string;
  values: readonly V[];
  /** Levels of α; Fleiss' κ always treats the values as categories. */
  levels: readonly Level[];
  /** The values' numbers, for ordinal and interval α. */
  scale?: readonly number[];
  /** Also κ_j and α of each value against the rest. */
  perValue?: boolean;
}

export interface ValueFigures {
  value: string;
  fleiss_kappa: Figure;
  /** Nominal α of this value against all the others. */
  alpha: Figure;
}

export interface GroupFigures {
  raters: RaterGroup;
  /** The group's raters who rated any item here. */
  rater_count: number;
  /** Items the group rated twice or more: the figures are over these. */
  items: number;
  /** Bootstrap draws (fewer than BOOTSTRAP.resamples over many items: drawsFor). */
  draws: number;
  fleiss_kappa: Figure;
  alpha: Partial<Record<Level, Figure>>;
  per_value?: ValueFigures[];
}

export const BOOTSTRAP = { resamples: BOOTSTRAP_RESAMPLES, method: 'percentile, items drawn with replacement' };

/** Draws on `items` items: 1000, or over 5,000 items as many as keep items × draws at 5 million, at least 200 (the time of a draw grows with the items; the interval narrows with them). */
export const drawsFor = (items: number): number =>
  Math.max(200, Math.min(BOOTSTRAP_RESAMPLES, Math.floor(5_000_000 / Math.max(1, items))));

const inGroup = (g: RaterGroup, kind: RaterKind) => g === 'all' || (g === 'humans') === (kind === 'human');

/** The three groups' figures on `keys`; `seed` seeds the bootstrap (the group's name is added to it). */
export function groupFigures<V>(
  keys: readonly string[],
  raters: readonly Rater<V>[],
  spec: LabelSpec<V>,
  seed: string,
): GroupFigures[] {
  return RATER_GROUPS.map((group) => {
    const members = raters.filter((r) => inGroup(group, r.kind) && keys.some((k) => r.ratings.has(k)));
    const rows = countTable(
      keys.map((k) => members.map((r) => r.ratings.get(k))),
      spec.values,
    ).filter((row) => row.reduce((a, b) => a + b, 0) >= 2);
    const k = spec.values.length;
    const figures = (draw: readonly number[][]): (number | null)[] => [
      fleissKappa(draw).kappa,
      ...spec.levels.map((level) => krippendorffAlpha(draw, level, spec.scale)),
      ...(spec.perValue ? perValueFigures(draw, k) : []),
    ];
    const draws = drawsFor(rows.length);
    const [kappa, ...rest] = withIntervals(rows, figures, `${seed}\n${spec.label}\n${group}`, draws);
    const alphas = rest.slice(0, spec.levels.length);
    const values = rest.slice(spec.levels.length);
    return {
      raters: group,
      rater_count: members.length,
      items: rows.length,
      draws,
      fleiss_kappa: kappa,
      alpha: Object.fromEntries(spec.levels.map((level, i) => [level, alphas[i]])),
      ...(spec.perValue
        ? {
            per_value: spec.values.map((v, j) => ({
              value: String(v),
              fleiss_kappa: values[j],
              alpha: values[k + j],
            })),
          }
        : {}),
    };
  });
}

/** κ_j of each value, then nominal α of each value against the rest (counts folded to [this, other]). */
function perValueFigures(draw: readonly number[][], k: number): (number | null)[] {
  const kappa = fleissKappa(draw).perValue;
  const kappas = Array.from({ length: k }, (_, j) => kappa[j] ?? null);
  const alphas = Array.from({ length: k }, (_, j) =>
    krippendorffAlpha(
      draw.map((row) => [row[j], row.reduce((a, b) => a + b, 0) - row[j]]),
      'nominal',
    ),
  );
  return [...kappas, ...alphas];
}

/** "0.430 (0.352 to 0.508)"; "not defined" for an undefined figure. */
export function figureText(f: Figure): string {
  if (f.value === null) return 'not defined';
  const v = f.value.toFixed(3);
  return f.interval ? `${v} (${f.interval.low.toFixed(3)} to ${f.interval.high.toFixed(3)})` : v;
}
