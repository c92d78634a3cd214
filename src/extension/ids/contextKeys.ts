// Context keys set with `setContext`, used in package.json `when` clauses.
export const ContextKeys = {
  corpusOpen: 'reviewCorpus.corpusOpen',
  exampleDiffActive: 'reviewCorpus.exampleDiffActive',
  exampleFlagged: 'reviewCorpus.exampleFlagged',
  busy: 'reviewCorpus.busy',
} as const;
