// The suggested-edit shares (docs/publishing.md), counted on the BUILT examples: every hunk no hunk
// rule removed, before the example rules and the duplicate rules (so before dedup), per organization ×
// window × registered half:
// - suggested_edit: examples carrying a Gerrit suggested edit (the suggested_edit rule's own test, on
//   every attached comment), whichever rule removed them, so the share has the whole population as its
//   denominator (rebase_only may count some of them first in the funnel);
// - looser_fence: examples a looser fence pattern selects, for the fence-sensitivity line;
// - target_in_comment: examples WITHOUT a suggested edit whose target a kept comment holds (the whole
//   population, beside the funnel's kept-only counter).
// Everything is read from the ExampleRecs the build decided, so the same stored records give the same counts.
import type { CorpusConfig, WindowConfig } from '../../ground/config/types';
import { opensSuggestionFence } from '../../rules/examples/suggestedEdit';
import type { ExampleRec } from '../stages/exampleStage';
import { targetInComment } from '../stages/exampleStage';
import { halfOf } from '../halves/halves';
import type { FenceSensitivity, ShareCell, SharesReport, WindowShares } from './sharesTypes';

export type { FenceSensitivity, ShareCell, ShareTrend, SharesReport, WindowShares } from './sharesTypes';

/**
 * A looser fence: any case, indented, spaces after the backticks, or "```suggest" (the same variants
 * build/flags/detect.ts flags as a fence the rule missed), anywhere a line starts.
 */
export const LOOSER_FENCE = /^[ \t]*```[ \t]*suggest(?:ion)?\b/im;
/**
 * Gerrit's own test is a substring: hasUserSuggestion(comment) is
 * `comment.message?.includes(USER_SUGGESTION_START_PATTERN)`, the pattern being "```suggestion\n"
 * (polygerrit-ui/app/utils/comment-util.ts, read at zongruxie4/gerrit 0a069e77f07b61225cc105d6183123a7b581eaa3,
 * a mirror of GerritCodeReview/gerrit; imported by polygerrit-ui/app/elements/shared/gr-comment/gr-comment.ts
 * at GerritCodeReview/gerrit 6b12f22378615c6a003b88a70af979f15c0faf48).
 */
export const GERRIT_SUGGESTION_START = '```suggestion\n';

export function looserFence(message: string): boolean {
  return LOOSER_FENCE.test(message) || message.includes(GERRIT_SUGGESTION_START);
}

export const POPULATION =
  'built examples: every hunk no hunk rule removed, before the example rules and the duplicate rules';

const emptyCell = (): ShareCell => ({
  built: 0,
  suggested_edit: 0,
  share: null,
  looser_fence: 0,
  without_suggested_edit: 0,
  target_in_comment: 0,
});

export function hasSuggestedEdit(e: ExampleRec): boolean {
  return e.comments.some((c) => c.unit.hasFixSuggestion || opensSuggestionFence(c.unit.message));
}

function add(cell: ShareCell, suggested: boolean, looser: boolean, target: boolean): void {
  cell.built++;
  if (suggested) cell.suggested_edit++;
  else cell.without_suggested_edit++;
  if (looser) cell.looser_fence++;
  if (!suggested && target) cell.target_in_comment++;
}

const ratio = (from: ShareCell | null | undefined, to: ShareCell | null | undefined) =>
  from?.share && to?.share !== null && to?.share !== undefined ? Math.round((to.share / from.share) * 100) / 100 : null;

export function fenceLine(f: Omit<FenceSensitivity, 'line'>): string {
  const n = f.built.toLocaleString('en-US');
  if (f.looser_only === 0 && f.rule_only === 0)
    return `on all ${n} built examples a looser case-insensitive fence pattern selects exactly the same ones (${f.rule.toLocaleString('en-US')})`;
  return (
    `on ${n} built examples a looser case-insensitive fence pattern selects ${f.looser.toLocaleString('en-US')} against the rule's ${f.rule.toLocaleString('en-US')}: ` +
    `${f.looser_only.toLocaleString('en-US')} the rule does not select${f.rule_only ? `, and misses ${f.rule_only.toLocaleString('en-US')} it does` : ''}`
  );
}

/** Per organization (every org the build saw), in windows' config order. */
export function builtShares(
  examples: readonly ExampleRec[],
  config: Pick<CorpusConfig, 'halves'>,
  windows: readonly WindowConfig[],
  orgs: Iterable<string>,
  minChars?: number,
): Map<string, SharesReport> {
  const out = new Map<
    string,
    SharesReport & { fenceCounts: { rule: number; looser: number; looserOnly: number; ruleOnly: number } }
  >();
  const report = (org: string) => {
    let r = out.get(org);
    if (!r) {
      const byWindow: Record<string, WindowShares> = {};
      for (const w of windows) {
        byWindow[w.name] = w.sealed
          ? { sealed: true, all: null, ...(config.halves ? { a: null, b: null } : {}) }
          : { all: emptyCell(), ...(config.halves ? { a: emptyCell(), b: emptyCell() } : {}) };
      }
      out.set(
        org,
        (r = {
          population: POPULATION,
          all: emptyCell(),
          windows: byWindow,
          trend: [],
          fence: undefined as unknown as FenceSensitivity,
          fenceCounts: { rule: 0, looser: 0, looserOnly: 0, ruleOnly: 0 },
        }),
      );
    }
    return r;
  };
  for (const org of orgs) report(org);
  for (const e of examples) {
    if (e.unit !== 'examples') continue;
    const r = report(e.change.org);
    const suggested = hasSuggestedEdit(e);
    const looser = e.comments.some((c) => c.unit.hasFixSuggestion || looserFence(c.unit.message));
    const target = !suggested && targetInComment(e, minChars);
    add(r.all, suggested, looser, target);
    if (suggested) r.fenceCounts.rule++;
    if (looser) r.fenceCounts.looser++;
    if (looser && !suggested) r.fenceCounts.looserOnly++;
    if (suggested && !looser) r.fenceCounts.ruleOnly++;
    const w = e.window === null ? undefined : r.windows[e.window];
    if (!w || w.sealed) continue;
    add(w.all!, suggested, looser, target);
    const half = config.halves ? halfOf(config.halves, e.change.org, e.change.number, e.change.project) : null;
    if (half) add(w[half]!, suggested, looser, target);
  }
  const result = new Map<string, SharesReport>();
  for (const [org, { fenceCounts: f, ...r }] of [...out].sort(([a], [b]) => a.localeCompare(b))) {
    const cells = [r.all, ...Object.values(r.windows).flatMap((w) => [w.all, w.a, w.b])];
    for (const c of cells) if (c) c.share = c.built ? Math.round((c.suggested_edit / c.built) * 1e4) / 1e4 : null;
    const open = windows.filter((w) => !w.sealed);
    for (let i = 1; i < open.length; i++) {
      const from = r.windows[open[i - 1].name];
      const to = r.windows[open[i].name];
      r.trend.push({
        from: open[i - 1].name,
        to: open[i].name,
        all: ratio(from.all, to.all),
        ...(config.halves ? { a: ratio(from.a, to.a), b: ratio(from.b, to.b) } : {}),
      });
    }
    const counts = {
      built: r.all.built,
      rule: f.rule,
      looser: f.looser,
      looser_only: f.looserOnly,
      rule_only: f.ruleOnly,
    };
    r.fence = { ...counts, line: fenceLine(counts) };
    result.set(org, r);
  }
  return result;
}

/** The fence-sensitivity line over every organization. */
export function corpusFenceSensitivity(shares: ReadonlyMap<string, SharesReport>): FenceSensitivity {
  const sum = (k: 'built' | 'rule' | 'looser' | 'looser_only' | 'rule_only') =>
    [...shares.values()].reduce((n, s) => n + s.fence[k], 0);
  const counts = {
    built: sum('built'),
    rule: sum('rule'),
    looser: sum('looser'),
    looser_only: sum('looser_only'),
    rule_only: sum('rule_only'),
  };
  return { ...counts, line: fenceLine(counts) };
}
