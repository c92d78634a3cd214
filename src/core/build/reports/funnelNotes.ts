// The funnel's words: why a count is not counted (or only partly), what the comment-count probe found,
// and the overlap between the comment rules and nothing_left. Written once here, into
// dataset-funnel.json, so the CLI table, the tree, the webview and the card all say the same thing.
import type { ProbeResult } from '../../gerrit/commentCountProbe';

/** The probe as dataset-funnel.json records it per organization; `text` is the line every view shows. */
export interface ProbeReport {
  sample: number;
  seed: number;
  candidates: number;
  probed: number;
  with_comments: number;
  unreadable: number;
  result: ProbeResult;
  probed_at: string;
  text: string;
}

export function probeText(p: Omit<ProbeReport, 'text'>): string {
  const of = p.probed + p.unreadable;
  const unread = p.unreadable > 0 ? `, ${p.unreadable} could not be read` : '';
  if (p.result === 'none') return 'probe not needed: no change was listed with total_comment_count 0';
  if (p.result === 'held') return `probe held: 0 of ${of} had comments`;
  return `probe failed: ${p.with_comments} of ${of} had comments${unread}; fetched without the shortcut`;
}

/** A host fetched before the probe existed, or never fetched by this version: the count was trusted unchecked. */
export const PROBE_NOT_RUN = "probe not run: this host's total_comment_count 0 was trusted without a check";

const changes = (n: number) => `${n.toLocaleString('en-US')} change${n === 1 ? '' : 's'}`;

export const NOT_COUNTED = {
  /**
   * no_comments where not one change that reached it was listed with a count: the rule could not run on
   * any of them, so its 0 would say nothing (as after a failed probe). Fewer than all: PARTLY_COUNTED.
   */
  noCommentCounts: (reached: number) =>
    `the listing reported no total_comment_count for any of the ${changes(reached)} that reached it (all fetched instead)`,
  probeFailed: (probe: string) => `${probe}, so no change was skipped for its count`,
  accountTags: (version: string | null) =>
    version === null
      ? "the host's Gerrit version was not recorded, so whether its accounts carry the SERVICE_USER tag is unknown"
      : `Gerrit ${version} sends no account tags (SERVICE_USER came in 3.3), so no account could be tagged a bot`,
  nameChecks: (accounts: number) =>
    `${accounts.toLocaleString('en-US')} account${accounts === 1 ? '' : 's'} stored before the bot-name patterns were matched (or only ever seen by id)`,
  sealed: 'sealed window: not built',
  /** A rule row or counter absent from a stored funnel: a build made before the tool counted it (storedFunnel.ts). */
  notRecorded: 'not recorded by this build (made before this count existed)',
  /** A null in a stored funnel that carries no reason (storedFunnel.ts). */
  noReason: 'the build recorded no reason',
} as const;

/** Why a rule's count holds only part of what it would remove. */
export const PARTLY_COUNTED = {
  botTags: (why: string) => `the SERVICE_USER part could not run: ${why}`,
  botNames: (why: string) => `the bot-name part could not run on ${why}`,
  status: (n: number) => `${changes(n)} stored before the fetch kept their status could not be checked`,
  /**
   * no_comments where some of the changes that reached it (not removed by an earlier collection rule)
   * were listed without total_comment_count: those were fetched instead, so the count is a lower bound.
   */
  commentCounts: (without: number, reached: number) =>
    `${without.toLocaleString('en-US')} of ${changes(reached)} had no comment count (fetched instead)`,
} as const;

/** The overlap note (docs/rules.md, "How the funnel counts"), with its number. */
export function overlapText(comments: number | null): string {
  if (comments === null) return 'overlap with nothing_left: not counted (sealed window: not built)';
  if (comments === 0)
    return 'overlap with nothing_left: none (no comment a comment rule removed belongs to an example nothing_left dropped)';
  const one = comments === 1;
  return `overlap with nothing_left: ${comments.toLocaleString('en-US')} comment${one ? '' : 's'} removed by a comment rule belong${one ? 's' : ''} to ${one ? 'an example' : 'examples'} that nothing_left then dropped for having no comment left, so those two steps overlap`;
}
