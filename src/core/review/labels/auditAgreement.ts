// The label audit's agreement among all raters at once, per organization: on all its items and on each
// window's, for the human raters, the model raters and both, Fleiss' κ and nominal Krippendorff's α on
// the label (answers, does not, unsure: three categories), and per label value its κ_j and α against
// the rest; each with a bootstrap 95% interval seeded by the audit sample's seed, so the same sample
// and labels give the same intervals. Beside the pairwise Cohen's κ of labelAudit.ts.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { auditItems, type AuditItem, type AuditSample } from './auditSample';
import { raterKinds, type RaterKind } from './importLabels';
import { LABELS, type Label } from './labels';
import { BOOTSTRAP, figureText, groupFigures, type GroupFigures, type Rater } from '../quality/raterAgreement';

export interface AgreementScope {
  /** true: all the organization's items; false: those of `window` (null: no window). */
  all_windows: boolean;
  window: string | null;
  /** The scope's items in the sample. */
  items: number;
  groups: GroupFigures[];
}

export interface OrgRaterAgreement {
  label: 'label';
  values: readonly Label[];
  bootstrap: typeof BOOTSTRAP & { seed: string };
  scopes: AgreementScope[];
}

/** Every rater's labels on the sample's items: rater → example key → label. */
export function sampleLabels(store: CorpusStore, sampleId: number): Map<string, Map<string, Label>> {
  const labels = new Map<string, Map<string, Label>>();
  for (const r of store.all<{ example_key: string; rater: string; label: Label }>(
    'SELECT l.example_key, l.rater, l.label FROM labels l WHERE l.example_key IN (SELECT example_key FROM audit_items WHERE sample_id = ?) ORDER BY l.rater',
    [sampleId],
  )) {
    if (!labels.has(r.rater)) labels.set(r.rater, new Map());
    labels.get(r.rater)!.set(r.example_key, r.label);
  }
  return labels;
}

/** What the figures are computed from, as plain data (the inspector hands it to a worker process). */
export interface AuditAgreementInput {
  seed: string;
  items: AuditItem[];
  raters: { name: string; kind: RaterKind; ratings: [string, Label][] }[];
}

export function auditAgreementInput(
  store: CorpusStore,
  sample: AuditSample,
  items: AuditItem[] = auditItems(store, sample.id),
  labels: ReadonlyMap<string, ReadonlyMap<string, Label>> = sampleLabels(store, sample.id),
): AuditAgreementInput {
  const kinds = raterKinds(store);
  return {
    seed: sample.seed,
    items,
    raters: [...labels].map(([name, ratings]) => ({ name, kind: kinds.get(name) ?? 'human', ratings: [...ratings] })),
  };
}

/** Each organization's figures, in the order of its first item. */
export function auditRaterAgreement(input: AuditAgreementInput): Map<string, OrgRaterAgreement> {
  const raters: Rater<Label>[] = input.raters.map((r) => ({ ...r, ratings: new Map(r.ratings) }));
  const orgs = [...new Set(input.items.map((i) => i.org))];
  return new Map(
    orgs.map((org) => [
      org,
      orgRaterAgreement(
        input.items.filter((i) => i.org === org),
        raters,
        input.seed,
      ),
    ]),
  );
}

function orgRaterAgreement(
  items: readonly AuditItem[],
  raters: readonly Rater<Label>[],
  seed: string,
): OrgRaterAgreement {
  const spec = { label: 'label', values: LABELS, levels: ['nominal'] as const, perValue: true };
  const org = items[0]?.org ?? '';
  const windows = [...new Set(items.map((i) => i.window))].sort((a, b) => (a ?? '').localeCompare(b ?? ''));
  const scope = (all: boolean, window: string | null): AgreementScope => {
    const keys = items.filter((i) => all || i.window === window).map((i) => i.exampleKey);
    const at = all ? 'all windows' : `window ${window ?? '(none)'}`;
    return {
      all_windows: all,
      window: all ? null : window,
      items: keys.length,
      groups: groupFigures(keys, raters, spec, `${seed}\n${org}\n${at}`),
    };
  };
  return {
    label: 'label',
    values: LABELS,
    bootstrap: { ...BOOTSTRAP, seed },
    scopes: [scope(true, null), ...windows.map((w) => scope(false, w))],
  };
}

const GROUP_WORDS = { humans: 'human raters', models: 'model raters', all: 'all raters' } as const;

export const scopeName = (s: Pick<AgreementScope, 'all_windows' | 'window'>): string =>
  s.all_windows ? 'all windows' : `window ${s.window ?? '(none)'}`;

/** One line per scope and rater group with two raters or more, as `audit report` prints them. */
export function agreementLines(a: OrgRaterAgreement): string[] {
  return a.scopes.flatMap((s) =>
    s.groups
      .filter((g) => g.rater_count >= 2)
      .map(
        (g) =>
          `${scopeName(s)}, ${GROUP_WORDS[g.raters]} (${g.rater_count}, ${g.items} items rated twice or more): ` +
          `Fleiss' κ ${figureText(g.fleiss_kappa)}, Krippendorff's α ${figureText(g.alpha.nominal!)}; ` +
          `κ per label: ${(g.per_value ?? []).map((v) => `${v.value} ${figureText(v.fleiss_kappa)}`).join(', ')}`,
      ),
  );
}
