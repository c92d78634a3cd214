// Setting keys under `reviewCorpus.*`, as contributed in package.json.
export const SETTINGS_SECTION = 'reviewCorpus';
export const Settings = {
  corpus: 'corpus',
  pageSize: 'tree.pageSize',
  /** An example diff shows both whole files (true) or the hunk alone. */
  wholeFile: 'diff.wholeFile',
} as const;
