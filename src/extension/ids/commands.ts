// Every command id the extension contributes. package.json's contributes.commands must match (a unit test checks).
export const Commands = {
  openCorpus: 'reviewCorpus.openCorpus',
  createSampleCorpus: 'reviewCorpus.createSampleCorpus',
  fetch: 'reviewCorpus.fetch',
  rebuild: 'reviewCorpus.rebuild',
  verify: 'reviewCorpus.verify',
  export: 'reviewCorpus.export',
  showFunnel: 'reviewCorpus.showFunnel',
  compareBuilds: 'reviewCorpus.compareBuilds',
  nextExample: 'reviewCorpus.nextExample',
  previousExample: 'reviewCorpus.previousExample',
  filter: 'reviewCorpus.filter',
  clearFilter: 'reviewCorpus.clearFilter',
  confirmFlag: 'reviewCorpus.confirmFlag',
  dismissFlag: 'reviewCorpus.dismissFlag',
  label: 'reviewCorpus.label',
  labelAnswers: 'reviewCorpus.labelAnswers',
  labelDoesNot: 'reviewCorpus.labelDoesNot',
  labelUnsure: 'reviewCorpus.labelUnsure',
  sealWindow: 'reviewCorpus.sealWindow',
  unsealWindow: 'reviewCorpus.unsealWindow',
  setSalt: 'reviewCorpus.setSalt',
  openItem: 'reviewCorpus.openItem',
  loadMore: 'reviewCorpus.loadMore',
  refresh: 'reviewCorpus.refresh',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
