// The label audit report (label-audit-<org>.json, the card's and the funnel page's "Label audit"):
// on the current audit sample's items of one organization, per rater the valid share with its
// counts, pairwise Cohen's κ, the same shares on the items a chosen build keeps (a share
// read again on a later build's kept set, docs/label-audit.md), and cross-tabs by that build's rule and by flag (suggested
// edit, target_in_comment, open flags). "Valid" is the label "answers": the rewrite answers its comment.
import { commentKeySql } from '../../build/stages/decisionKeys';
import { findTargetInComments } from '../../build/stages/targetInComment';
import { opensSuggestionFence } from '../../rules/examples/suggestedEdit';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { auditItems, currentAuditSample, type AuditSample } from './auditSample';
import { AUDIT_ROW_SQL } from './auditExport';
import { raterKinds, type RaterKind } from './importLabels';
import { cohensKappa } from '../../ground/stats/kappa';
import { LABELS, type Label } from './labels';
import { auditAgreementInput, auditRaterAgreement, sampleLabels, type OrgRaterAgreement } from './auditAgreement';

export const VALID_LABEL: Label = 'answers';

export interface RaterTally {
  rater: string;
  kind: RaterKind;
  /** Items of the set this rater labelled. */
  scored: number;
  answers: number;
  does_not: number;
  unsure: number;
  /** answers / scored ("unsure" counts in the denominator); null when the rater labelled none. */
  valid_share: number | null;
}

export interface CrossRow {
  /** 'rule': the item's decision in the compared build ('kept', a rule id, or 'not in build'); 'flag': a property of the item. */
  by: 'rule' | 'flag';
  value: string;
  items: number;
  /** Items of the row labelled by at least one rater. */
  scored: number;
  raters: { rater: string; scored: number; valid: number }[];
}

export interface OrgLabelAudit {
  org: string;
  valid_label: Label;
  sample: {
    id: number;
    build: number;
    seed: string;
    size: number;
    drawn_at: string;
    items_sha256: string;
    strata: AuditSample['strata'];
  };
  /** The organization's items in the sample, and of them those any rater labelled. */
  items: number;
  scored: number;
  raters: RaterTally[];
  agreement: { rater_a: string; rater_b: string; both: number; kappa: number | null }[];
  /** Fleiss' κ and Krippendorff's α among all raters, per window and rater kind (auditAgreement.ts); absent when not asked. */
  rater_agreement?: OrgRaterAgreement;
  /** The same shares on the items the compared build keeps. */
  kept_set: { build: number; items: number; raters: RaterTally[] };
  cross_tab: CrossRow[];
  /** The cross-tab's flags, and the kept set, in words. */
  summary: string[];
}

export interface LabelAuditReport {
  sample: AuditSample;
  /** The build the kept set and the rule cross-tab are read from. */
  build: number;
  organizations: OrgLabelAudit[];
}

const FLAGS = ['suggested_edit', 'target_in_comment', 'open_flag'] as const;

/**
 * The report on the current sample, or undefined when no sample was drawn. `agreement: false` leaves
 * out the agreement among all raters (its bootstrap is the slow part; the inspector computes it off
 * the extension host's thread).
 */
export function labelAudit(
  store: CorpusStore,
  buildId: number,
  opts: { agreement?: boolean } = {},
): LabelAuditReport | undefined {
  const sample = currentAuditSample(store);
  if (!sample) return undefined;
  const items = auditItems(store, sample.id);
  const kinds = raterKinds(store);
  const labels = sampleLabels(store, sample.id); // rater → key → label
  const ruleIn = new Map(
    store
      .all<{ example_key: string; rule: string }>(
        `SELECT e.example_key, coalesce(e.rule, 'kept') AS rule FROM examples e JOIN audit_items a ON a.example_key = e.example_key
     WHERE a.sample_id = ? AND e.build_id = ?`,
        [sample.id, buildId],
      )
      .map((r) => [r.example_key, r.rule]),
  );
  const flags = itemFlags(store, sample);
  const many =
    opts.agreement === false ? undefined : auditRaterAgreement(auditAgreementInput(store, sample, items, labels));
  const orgs = [...new Set(items.map((i) => i.org))].sort();
  const read: AuditRead = { sample, buildId, items, kinds, labels, ruleIn, flags, many };
  const organizations = orgs.map((org) => orgLabelAudit(org, read));
  return { sample, build: buildId, organizations };
}

/** What the report reads once, for every organization. */
interface AuditRead {
  sample: AuditSample;
  buildId: number;
  items: ReturnType<typeof auditItems>;
  kinds: ReturnType<typeof raterKinds>;
  /** rater → key → label */
  labels: ReturnType<typeof sampleLabels>;
  /** example key → the compared build's rule for it ('kept' when kept) */
  ruleIn: Map<string, string>;
  flags: ReturnType<typeof itemFlags>;
  many: ReturnType<typeof auditRaterAgreement> | undefined;
}

/** One organization's report. */
function orgLabelAudit(org: string, read: AuditRead): OrgLabelAudit {
  const { sample, buildId, items, kinds, labels, ruleIn, many } = read;
  const keys = items.filter((i) => i.org === org).map((i) => i.exampleKey);
  const raters = [...labels.keys()].filter((r) => keys.some((k) => labels.get(r)!.has(k)));
  const tally = (set: readonly string[]) => raters.map((r) => tallyOf(r, kinds.get(r) ?? 'human', set, labels.get(r)!));
  const scoredIn = (set: readonly string[]) => set.filter((k) => raters.some((r) => labels.get(r)!.has(k))).length;
  const agreement = pairwiseKappas(raters, labels, keys);
  const cross = crossTab(keys, raters, read);
  const kept = keys.filter((k) => ruleIn.get(k) === 'kept');
  const scored = scoredIn(keys);
  const all = tally(keys);
  const keptTally = tally(kept);
  return {
    org,
    valid_label: VALID_LABEL,
    sample: {
      id: sample.id,
      build: sample.buildId,
      seed: sample.seed,
      size: sample.size,
      drawn_at: sample.drawnAt,
      items_sha256: sample.itemsSha256,
      strata: sample.strata.filter((s) => s.org === org),
    },
    items: keys.length,
    scored,
    raters: all,
    agreement,
    ...(many ? { rater_agreement: many.get(org)! } : {}),
    kept_set: { build: buildId, items: kept.length, raters: keptTally },
    cross_tab: cross,
    summary: [
      ...cross
        .filter((c) => c.by === 'rule' && c.value !== 'kept')
        .map((c) =>
          flagSentence(
            c,
            scored,
            `build ${buildId} ${c.value === 'not in build' ? 'does not hold' : `removes as ${c.value}`}`,
          ),
        ),
      ...cross.filter((c) => c.by === 'flag').map((c) => flagSentence(c, scored)),
      keptSentence(buildId, kept.length, all, keptTally),
    ],
  };
}

/** Cohen's κ for every pair of raters, on the items both labelled. */
function pairwiseKappas(
  raters: readonly string[],
  labels: AuditRead['labels'],
  keys: readonly string[],
): OrgLabelAudit['agreement'] {
  const agreement: OrgLabelAudit['agreement'] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const a = labels.get(raters[i])!;
      const b = labels.get(raters[j])!;
      const pairs = keys.filter((k) => a.has(k) && b.has(k)).map((k): [Label, Label] => [a.get(k)!, b.get(k)!]);
      agreement.push({ rater_a: raters[i], rater_b: raters[j], both: pairs.length, kappa: cohensKappa(pairs) });
    }
  }
  return agreement;
}

/** The valid shares by the compared build's rule (kept first) and by flag. */
function crossTab(
  keys: readonly string[],
  raters: readonly string[],
  { labels, ruleIn, flags }: AuditRead,
): CrossRow[] {
  const scoredIn = (set: readonly string[]) => set.filter((k) => raters.some((r) => labels.get(r)!.has(k))).length;
  const row = (by: CrossRow['by'], value: string, set: readonly string[]): CrossRow => ({
    by,
    value,
    items: set.length,
    scored: scoredIn(set),
    raters: raters.map((r) => {
      const m = labels.get(r)!;
      return {
        rater: r,
        scored: set.filter((k) => m.has(k)).length,
        valid: set.filter((k) => m.get(k) === VALID_LABEL).length,
      };
    }),
  });
  const rules = [...new Set(keys.map((k) => ruleIn.get(k) ?? 'not in build'))].sort((a, b) =>
    a === 'kept' ? -1 : b === 'kept' ? 1 : a.localeCompare(b),
  );
  return [
    ...rules.map((rule) =>
      row(
        'rule',
        rule,
        keys.filter((k) => (ruleIn.get(k) ?? 'not in build') === rule),
      ),
    ),
    ...FLAGS.map((f) =>
      row(
        'flag',
        f,
        keys.filter((k) => flags.get(k)?.has(f)),
      ),
    ),
  ];
}

function tallyOf(rater: string, kind: RaterKind, keys: readonly string[], m: ReadonlyMap<string, Label>): RaterTally {
  const counts = Object.fromEntries(LABELS.map((l) => [l, 0])) as Record<Label, number>;
  for (const k of keys) {
    const l = m.get(k);
    if (l) counts[l]++;
  }
  const scored = counts.answers + counts.does_not + counts.unsure;
  return { rater, kind, scored, ...counts, valid_share: scored ? counts.answers / scored : null };
}

const FLAG_WORDS: Record<(typeof FLAGS)[number], string> = {
  suggested_edit: 'carry a suggested edit',
  target_in_comment: 'hold their target in a comment (target_in_comment)',
  open_flag: 'carry an open flag',
};

/**
 * The sentence docs/label-audit.md shows: "25 of the audit's 383 scored items carry a suggested edit; raters A and B called
 * 20 and 23 of them valid, and the human 11 of 13 checked".
 */
function flagSentence(c: CrossRow, scored: number, words = FLAG_WORDS[c.value as (typeof FLAGS)[number]]): string {
  const head = `${c.scored} of the audit's ${scored} scored items ${words}`;
  if (c.scored === 0 || c.raters.length === 0) return `${head}.`;
  const full = c.raters.filter((r) => r.scored === c.scored);
  const partial = c.raters
    .filter((r) => r.scored !== c.scored)
    .map((r) =>
      r.scored === 0 ? `${r.rater} labelled none of them` : `${r.rater} ${r.valid} of the ${r.scored} it labelled`,
    );
  const called = full.length
    ? `raters called ${joinWords(full.map((r) => `${r.valid} (${r.rater})`))} of them valid`
    : '';
  return `${head}; ${[called, joinWords(partial)].filter(Boolean).join(', and ')}.`;
}

function keptSentence(
  build: number,
  kept: number,
  all: readonly RaterTally[],
  keptTally: readonly RaterTally[],
): string {
  const share = (t: RaterTally) =>
    t.valid_share === null ? 'none labelled' : `${t.valid_share.toFixed(3)} (${t.scored})`;
  const moves = all.map((t, i) => `${t.rater} ${share(t)} to ${share(keptTally[i])}`);
  return `On the ${kept} items build ${build} keeps, the valid shares${moves.length ? `: ${joinWords(moves)}` : ' are not defined: no rater labelled any'}.`;
}

const joinWords = (xs: readonly string[]) =>
  xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** Per item of the sample, its flags as the sample's build (or, pruned, the latest holding it) has it: suggested edit, target_in_comment, an open flag. */
function itemFlags(store: CorpusStore, sample: AuditSample): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (k: string, f: string) => (out.get(k) ?? out.set(k, new Set()).get(k)!).add(f);
  const texts = new Map<string, { before: string; after: string; kept: string[] }>();
  store.each(
    `SELECT e.example_key, e.before_text, e.after_text, cm.message, cm.fix_suggestions, d.rule AS comment_rule
     FROM audit_items a JOIN examples e ON e.id = ${AUDIT_ROW_SQL}
     JOIN example_comments x ON x.example_id = e.id JOIN comments cm ON cm.id = x.comment_id
     JOIN changes c ON c.id = cm.change_id JOIN hosts h ON h.id = c.host_id
     LEFT JOIN decisions d ON d.build_id = e.build_id AND d.unit = 'comments' AND d.unit_key = ${commentKeySql('h', 'c', 'cm')}
     WHERE a.sample_id = ?`,
    [sample.buildId, sample.id],
    (r) => {
      const key = String(r.example_key);
      // As the suggested_edit rule reads it (commentStage's hasFixSuggestion): any attached comment, removed or not.
      if (r.fix_suggestions !== null || opensSuggestionFence(String(r.message))) add(key, 'suggested_edit');
      const t = texts.get(key) ?? { before: String(r.before_text), after: String(r.after_text), kept: [] };
      if (r.comment_rule === 'kept') t.kept.push(String(r.message));
      texts.set(key, t);
    },
  );
  // As the build counts target_in_comment: in a comment the comment rules kept.
  for (const [key, t] of texts)
    if (findTargetInComments(t.before, t.after, t.kept) !== null) add(key, 'target_in_comment');
  for (const r of store.all<{ example_key: string }>(
    "SELECT DISTINCT f.example_key FROM flags f JOIN audit_items a ON a.example_key = f.example_key WHERE a.sample_id = ? AND f.status = 'open'",
    [sample.id],
  )) {
    add(r.example_key, 'open_flag');
  }
  return out;
}
