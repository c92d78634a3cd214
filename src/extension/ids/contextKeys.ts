// Context keys set with `setContext`, used in package.json `when` clauses.
export const ContextKeys = {
  corpusOpen: 'reviewCorpus.corpusOpen',
  exampleDiffActive: 'reviewCorpus.exampleDiffActive',
  exampleFlagged: 'reviewCorpus.exampleFlagged',
  /** The active example diff is a duplicate whose evidence names a twin. */
  exampleHasTwin: 'reviewCorpus.exampleHasTwin',
  busy: 'reviewCorpus.busy',
  /**
   * A move to another example (Alt+. / Alt+, or a click in the tree) is under way: while the next diff
   * opens, focus is nowhere in particular, and the label keys stay bound so none is dropped (labelling/keyQueue.ts).
   */
  navigating: 'reviewCorpus.navigating',
  /** A label given in this window can be undone (Ctrl+Z in the example diff or the tree). */
  labelUndoable: 'reviewCorpus.labelUndoable',
  /** What the corpus view can show: one of TreeStates; package.json gives each its welcome text. */
  treeState: 'reviewCorpus.treeState',
  /** A tree filter is set (Filter…); with an empty tree, the welcome offers Clear Filter. */
  filterActive: 'reviewCorpus.filterActive',
} as const;

/** Values of ContextKeys.treeState. Unset (before activation) reads as `none`. */
export const TreeStates = {
  /** No corpus.json is open. */
  none: 'none',
  /** A corpus.json is open, but its corpus file does not exist yet or holds no change. */
  notFetched: 'notFetched',
  /** Changes are fetched, but no build has finished. */
  notBuilt: 'notBuilt',
  built: 'built',
} as const;
export type TreeState = (typeof TreeStates)[keyof typeof TreeStates];
