// When each command can run, as the `when` of its package.json menus.commandPalette entry: a command
// that needs an open corpus or an active example diff is hidden from the palette without one (a unit
// test checks package.json against this table). Every command is listed, so a new one has to say.
import { Commands, type CommandId } from './commands';
import { ContextKeys, TreeStates } from './contextKeys';

const corpusOpen = ContextKeys.corpusOpen;
/** A corpus.json is open, even one with nothing fetched yet (Fetch from Hosts and Refresh work there). */
const configOpen = `${ContextKeys.treeState} && ${ContextKeys.treeState} != ${TreeStates.none}`;
const exampleDiff = ContextKeys.exampleDiffActive;

/** undefined: always in the palette; 'false': never (it takes a tree node). */
export const PaletteWhen: Record<CommandId, string | undefined> = {
  [Commands.openCorpus]: undefined,
  [Commands.createSampleCorpus]: undefined,
  [Commands.newCorpus]: undefined,
  [Commands.setSalt]: undefined,
  [Commands.setJudgeKey]: undefined,
  [Commands.judgeComments]: corpusOpen,
  [Commands.fetch]: configOpen,
  [Commands.planFetch]: configOpen,
  [Commands.refresh]: configOpen,
  [Commands.rebuild]: corpusOpen,
  [Commands.verify]: corpusOpen,
  [Commands.export]: corpusOpen,
  [Commands.exportSearchReplace]: corpusOpen,
  [Commands.exportHub]: corpusOpen,
  [Commands.showFunnel]: corpusOpen,
  [Commands.saveFunnelSvg]: corpusOpen,
  [Commands.compareBuilds]: corpusOpen,
  [Commands.tagBuild]: corpusOpen,
  [Commands.nextExample]: corpusOpen,
  [Commands.previousExample]: corpusOpen,
  [Commands.filter]: corpusOpen,
  [Commands.clearFilter]: ContextKeys.filterActive,
  [Commands.sealWindow]: corpusOpen,
  [Commands.unsealWindow]: corpusOpen,
  [Commands.protectReferences]: corpusOpen,
  [Commands.drawAuditSample]: corpusOpen,
  [Commands.registerHalves]: corpusOpen,
  [Commands.showSearchReplace]: exampleDiff,
  [Commands.label]: exampleDiff,
  [Commands.labelAnswers]: exampleDiff,
  [Commands.labelDoesNot]: exampleDiff,
  [Commands.labelUnsure]: exampleDiff,
  [Commands.undoLabel]: ContextKeys.labelUndoable,
  [Commands.labelCommentQuality]: exampleDiff,
  [Commands.confirmFlag]: ContextKeys.exampleFlagged,
  [Commands.rejectFlag]: ContextKeys.exampleFlagged,
  [Commands.openKeptTwin]: ContextKeys.exampleHasTwin,
  [Commands.openItem]: 'false',
  [Commands.loadMore]: 'false',
};
