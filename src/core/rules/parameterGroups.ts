// Rule parameters that no one rule owns. Each group says why it is not a rule's; config/ruleParameters.ts
// assembles them after the funnel's rules.
import type { ParameterGroup } from './parameters';

/**
 * The shape of every hunk: the build's anchoring (build/stages/anchoring.ts) adds these context lines,
 * and what it forms is what size measures, what the duplicate rules compare and what an example stores.
 */
export const hunkContext: ParameterGroup = {
  id: 'hunk context',
  description: 'how the build forms each hunk (every hunk, example and duplicate rule reads the result)',
  parameters: {
    contextLines: {
      type: 'integer',
      minimum: 0,
      default: 3,
      description: 'Context lines added on each side of a hunk.',
    },
  },
};

/** Reported, not a filter: it changes no decision, only the target_in_comment counts. */
export const targetInComment: ParameterGroup = {
  id: 'target_in_comment',
  description: 'a report on kept examples (build/stages/targetInComment.ts); it removes nothing',
  parameters: {
    targetInCommentMinChars: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'target_in_comment (reported, never filtered): the shortest target, whitespace-normalised per line, that counts when a comment holds it verbatim (default 20 characters).',
    },
  },
};

/** In the order the schema and docs/rules.md list them, after the funnel's rules. */
export const PARAMETER_GROUPS: readonly ParameterGroup[] = [hunkContext, targetInComment];
