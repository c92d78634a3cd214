// Setting keys under `reviewCorpus.*`, as contributed in package.json.
export const SETTINGS_SECTION = 'reviewCorpus';
export const Settings = {
  corpus: 'corpus',
  pageSize: 'tree.pageSize',
} as const;
