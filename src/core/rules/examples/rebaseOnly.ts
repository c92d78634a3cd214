import type { RevisionKind } from '../../gerrit/types';
import type { ExampleUnit, Rule } from '../types';

/**
 * Revision kinds by which Gerrit says patch set N + 1 only rebased the change (or changed nothing): the
 * one list of them (typed by Gerrit's own RevisionKind, so a misspelt kind does not compile).
 */
export const REBASE_KINDS: ReadonlySet<string> = new Set<RevisionKind>([
  'TRIVIAL_REBASE',
  'TRIVIAL_REBASE_WITH_MESSAGE_UPDATE',
  'MERGE_FIRST_PARENT_UPDATE',
  'NO_CODE_CHANGE',
  'NO_CHANGE',
]);

/**
 * Patch set N + 1 only rebased. A kind Gerrit never recorded (null) is kept without this check; the
 * build counts those as `kind_unrecorded`.
 */
export const rebaseOnly: Rule<ExampleUnit> = {
  id: 'rebase_only',
  stage: 'examples',
  unit: 'examples',
  description: "the next patch set's kind says it only rebased",
  decide(example) {
    return example.kindAfter !== null && REBASE_KINDS.has(example.kindAfter)
      ? { rule: this.id, evidence: { kind: example.kindAfter } }
      : null;
  },
};
