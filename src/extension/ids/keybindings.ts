// The keys of labelling, as package.json contributes them (a unit test checks package.json against this
// table), and why each `when` reads as it does.
import { Commands, type CommandId } from './commands';
import { ContextKeys } from './contextKeys';
import { Views } from './views';

const inTree = `focusedView == ${Views.tree}`;
/**
 * Focus on the page itself, as while a diff opens before its editor takes focus: no editor (its Find
 * widget included), view, list or Quick Open. Not `!inputFocus`: the workbench keeps that key from the
 * last focus event, and the editor's text area that had focus is taken out of the page without one.
 */
const nowhere = '!editorFocus && !focusedView && !listFocus && !inQuickOpen';
/**
 * While the next example opens, the tab has changed, the editor may be blank and focus on the page: the
 * keys stay bound there, and in the editor that had focus, so none is dropped. The example they apply to
 * is decided in order by the key queue (labelling/keyQueue.ts), not by where focus happens to be.
 */
const duringMove = `${ContextKeys.navigating} && (editorTextFocus || ${nowhere})`;

const label = `${ContextKeys.exampleDiffActive} && (editorTextFocus || ${inTree}) || ${duringMove}`;
const move = `${ContextKeys.exampleDiffActive} && editorTextFocus || ${ContextKeys.corpusOpen} && ${inTree} || ${duringMove}`;
/**
 * Ctrl+Z undoes a label only in the example diff, whose documents are read-only (`editorReadonly`: no
 * edit of a writable editor's can be taken), in the tree (not its filter box), or during a move; and
 * only while there is a label to undo, so everywhere else it is VS Code's own Undo.
 */
const undo = `${ContextKeys.labelUndoable} && (${ContextKeys.exampleDiffActive} && editorTextFocus && editorReadonly || ${inTree} && !inputFocus || ${ContextKeys.navigating} && (editorTextFocus && editorReadonly || ${nowhere}))`;

export interface KeyBinding {
  command: CommandId;
  key: string;
  mac?: string;
  when: string;
}

export const KeyBindings: KeyBinding[] = [
  { command: Commands.labelAnswers, key: 'ctrl+alt+1', when: label },
  { command: Commands.labelDoesNot, key: 'ctrl+alt+2', when: label },
  { command: Commands.labelUnsure, key: 'ctrl+alt+3', when: label },
  { command: Commands.undoLabel, key: 'ctrl+z', mac: 'cmd+z', when: undo },
  { command: Commands.nextExample, key: 'alt+.', when: move },
  { command: Commands.previousExample, key: 'alt+,', when: move },
];

/** Keys bound on purpose over a VS Code default (the integration suite checks every other key shadows none). */
export const OVER_DEFAULTS: CommandId[] = [Commands.undoLabel];
