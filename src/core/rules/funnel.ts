// THE funnel: every rule, in the order it runs. A unit is counted by the first rule that removes it;
// the build walks these lists in this order and the funnel report lists them in this order.
import { changeFetchError } from './collection/fetchError';
import { blocklistedProject } from './collection/blocklistedProject';
import { createdBeforeStart } from './collection/createdBeforeStart';
import { disallowed } from './collection/disallowed';
import { noComments } from './collection/noComments';
import { notMerged } from './collection/notMerged';
import { sealedWindow } from './collection/sealedWindow';
import { goneFromHost } from './collection/goneFromHost';
import { deletedOnHost } from './comments/deletedOnHost';
import { postMergeComment } from './comments/postMergeComment';
import { acknowledgement } from './comments/acknowledgement';
import { botAccount } from './comments/botAccount';
import { botTemplate } from './comments/botTemplate';
import { commentFetchError } from './comments/fetchError';
import { irrelevantComment } from './comments/irrelevantComment';
import { noLine } from './comments/noLine';
import { noSuccessor } from './comments/noSuccessor';
import { ownAuthor } from './comments/ownAuthor';
import { parentSide } from './comments/parentSide';
import { protectedComment } from './comments/protectedComment';
import { pseudoFile } from './comments/pseudoFile';
import { unchangedAround } from './comments/unchangedAround';
import { boilerplate } from './duplicates/boilerplate';
import { exactDuplicate } from './duplicates/exactDuplicate';
import { nearDuplicate } from './duplicates/nearDuplicate';
import { sameChange } from './duplicates/sameChange';
import { protectedOverlap } from './decontamination/protectedOverlap';
import { appliedFix } from './examples/appliedFix';
import { manualFlag } from './examples/manualFlag';
import { nothingLeft } from './examples/nothingLeft';
import { rebaseOnly } from './examples/rebaseOnly';
import { suggestedEdit } from './examples/suggestedEdit';
import { oneSided } from './hunks/oneSided';
import { size } from './hunks/size';
import { isRuleOff } from './switchedOff';
import type {
  ChangeUnit,
  CommentUnit,
  DuplicateUnit,
  ExampleUnit,
  HunkUnit,
  ProtectedUnit,
  Removal,
  Rule,
  RuleContext,
  Stage,
  UnitKind,
} from './types';

export const COLLECTION_RULES: readonly Rule<ChangeUnit>[] = [
  createdBeforeStart,
  notMerged,
  blocklistedProject,
  noComments,
  sealedWindow,
  disallowed,
  changeFetchError,
  // Last: only a change every other collection rule keeps is counted gone, so their counts hold still.
  goneFromHost,
];

export const COMMENT_RULES: readonly Rule<CommentUnit>[] = [
  // First: a comment the host deleted is no reviewer's comment any more, whatever else it was.
  deletedOnHost,
  pseudoFile,
  ownAuthor,
  botAccount,
  acknowledgement,
  noLine,
  parentSide,
  noSuccessor,
  postMergeComment,
  unchangedAround,
  botTemplate,
  commentFetchError,
  protectedComment,
  // Last: it judges only what every other comment rule kept (off by default, judge.irrelevantComment).
  irrelevantComment,
];

export const HUNK_RULES: readonly Rule<HunkUnit>[] = [oneSided, size];

export const EXAMPLE_RULES: readonly Rule<ExampleUnit>[] = [
  rebaseOnly,
  suggestedEdit,
  appliedFix,
  nothingLeft,
  manualFlag,
];

export const DUPLICATE_RULES: readonly Rule<DuplicateUnit>[] = [sameChange, exactDuplicate, nearDuplicate, boilerplate];

/** After the duplicates (docs/rules.md, "How the funnel counts"). */
export const DECONTAMINATION_RULES: readonly Rule<ProtectedUnit>[] = [protectedOverlap];

/** One step of the funnel, as the report lists it. */
export interface FunnelStep {
  stage: Stage;
  rule: string;
  unit: UnitKind;
  description: string;
}

const step = (r: Rule<never>): FunnelStep => ({ stage: r.stage, rule: r.id, unit: r.unit, description: r.description });

/** Every rule of every stage, in order (config/ruleParameters.ts reads their parameters from here). */
export const RULES: readonly Rule<never>[] = [
  ...COLLECTION_RULES,
  ...COMMENT_RULES,
  ...HUNK_RULES,
  ...EXAMPLE_RULES,
  ...DUPLICATE_RULES,
  ...DECONTAMINATION_RULES,
] as readonly Rule<never>[];

/** Every rule of every stage, in order. */
export const FUNNEL: readonly FunnelStep[] = RULES.map(step);

/** The first rule of `rules` that removes `unit`, or null when every rule keeps it; a rule switched off (`rules.enabled`) decides nothing. */
export function firstRemoval<U>(rules: readonly Rule<U>[], unit: U, ctx: RuleContext): Removal | null {
  const enabled = ctx.rules.enabled;
  for (const rule of rules) {
    if (enabled !== undefined && isRuleOff(enabled, rule.id)) continue;
    const removal = rule.decide(unit, ctx);
    if (removal) return removal;
  }
  return null;
}
