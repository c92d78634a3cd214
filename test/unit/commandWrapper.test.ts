// Commands are registered one way and hidden where they cannot run: every command goes through
// registerCommand (logs, one plain-text error with "Show Log", quiet cancellation), no other code shows
// an error notification, and package.json's palette `when` clauses are those of the PaletteWhen table.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pkg from '../../package.json';
import { Commands } from '../../src/extension/ids/commands';
import { PaletteWhen } from '../../src/extension/ids/commandPalette';
import { ContextKeys } from '../../src/extension/ids/contextKeys';

const ROOT = path.resolve(__dirname, '../..');
const WRAPPER = path.join('src', 'extension', 'registerCommand.ts');
const MARKDOWN = path.join('src', 'extension', 'untrustedMarkdown.ts');

function extensionSources(): string[] {
  const files = [path.join('src', 'extension.ts')];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (rel.endsWith('.ts') && !rel.endsWith('.test.ts')) files.push(rel);
    }
  };
  walk(path.join('src', 'extension'));
  return files;
}

describe('commands: one wrapper, hidden where they cannot run', () => {
  it('registers every command through registerCommand, shows errors only there, and makes MarkdownStrings in one place', () => {
    const offenders: string[] = [];
    for (const file of extensionSources()) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (file !== WRAPPER && /commands\.registerCommand\(|showErrorMessage\(/.test(line))
          offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        if (file !== MARKDOWN && /new vscode\.MarkdownString\(/.test(line))
          offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(
      offenders,
      [],
      'use registerCommand / showError (src/extension/registerCommand.ts) and untrustedMarkdown (src/extension/untrustedMarkdown.ts)',
    );
  });

  it('gives each command the palette `when` of the PaletteWhen table, naming only ContextKeys', () => {
    const palette = pkg.contributes.menus.commandPalette as { command: string; when?: string }[];
    const keys = new Set<string>(Object.values(ContextKeys));
    for (const id of Object.values(Commands)) {
      const entries = palette.filter((m) => m.command === id);
      assert.ok(entries.length <= 1, `${id} has one palette entry at most`);
      assert.equal(entries[0]?.when, PaletteWhen[id], `the palette when of ${id}`);
    }
    for (const when of Object.values(PaletteWhen)) {
      for (const key of when?.match(/reviewCorpus\.\w+/g) ?? []) assert.ok(keys.has(key), `${key} is in ContextKeys`);
    }
    // What needs an open corpus or an active example says so (the table could otherwise say "always").
    for (const id of [
      Commands.rebuild,
      Commands.verify,
      Commands.export,
      Commands.compareBuilds,
      Commands.sealWindow,
    ]) {
      assert.match(PaletteWhen[id] ?? '', new RegExp(ContextKeys.corpusOpen.replace('.', '\\.')), id);
    }
    for (const id of [
      Commands.label,
      Commands.labelAnswers,
      Commands.labelDoesNot,
      Commands.labelUnsure,
      Commands.showSearchReplace,
    ]) {
      assert.equal(PaletteWhen[id], ContextKeys.exampleDiffActive, id);
    }
    for (const id of [Commands.confirmFlag, Commands.rejectFlag])
      assert.equal(PaletteWhen[id], ContextKeys.exampleFlagged, id);
  });

  it('binds keys only where focus is in an example diff or the corpus tree, or nowhere while the next example opens', () => {
    const bindings = pkg.contributes.keybindings as { command: string; key: string; when?: string }[];
    assert.ok(bindings.length >= 5);
    const keys = [...Object.values(ContextKeys)];
    for (const b of bindings) {
      const when = b.when ?? 'true';
      // Every assignment of our context keys, with focus nowhere of ours (Search, Find, the terminal…): never.
      for (let bits = 0; bits < 1 << keys.length; bits++) {
        const context = Object.fromEntries(keys.map((k, i) => [k, (bits >> i) & 1 ? 'true' : '']));
        assert.equal(
          evaluateWhen(when, { ...context, editorTextFocus: '', focusedView: 'workbench.view.search' }),
          false,
          `${b.command} (${b.key}) fires without focus: ${when}`,
        );
      }
      const inDiff = {
        [ContextKeys.corpusOpen]: 'true',
        [ContextKeys.exampleDiffActive]: 'true',
        [ContextKeys.labelUndoable]: 'true',
        editorTextFocus: 'true',
        editorFocus: 'true',
        editorReadonly: 'true',
        inputFocus: 'true',
        focusedView: '',
      };
      assert.equal(evaluateWhen(when, inDiff), true, `${b.command} (${b.key}) fires in an example diff: ${when}`);
      // While the next example opens, focus is on the page: the key still fires, and only then.
      // (inputFocus as the workbench left it: the focused text area was taken out of the page without a focus event.)
      const onPage = { ...inDiff, editorTextFocus: '', editorFocus: '', editorReadonly: '', inputFocus: 'true' };
      assert.equal(evaluateWhen(when, { ...onPage, [ContextKeys.navigating]: 'true' }), true, `${b.command} mid-move`);
      assert.equal(evaluateWhen(when, onPage), false, `${b.command} with focus on the page and no move`);
      // In the Find widget of the diff (an input, not the editor's text), mid-move or not: VS Code's.
      const inFind = { ...onPage, inputFocus: 'true', editorFocus: 'true', [ContextKeys.navigating]: 'true' };
      assert.equal(evaluateWhen(when, inFind), false, `${b.command} in the Find widget`);
    }
    // Ctrl+Z is VS Code's Undo in any writable editor, mid-move or not, and wherever no label can be undone.
    const undo = bindings.find((b) => b.command === Commands.undoLabel)!;
    for (const navigating of ['true', '']) {
      const writable = {
        [ContextKeys.exampleDiffActive]: 'true',
        [ContextKeys.labelUndoable]: 'true',
        [ContextKeys.navigating]: navigating,
        editorTextFocus: 'true',
        editorFocus: 'true',
        inputFocus: 'true',
        editorReadonly: '',
      };
      assert.equal(evaluateWhen(undo.when!, writable), false, `Undo in a writable editor (mid-move: ${navigating})`);
    }
    const inTree = { [ContextKeys.labelUndoable]: 'true', focusedView: 'reviewCorpus.tree' };
    assert.equal(evaluateWhen(undo.when!, inTree), true, 'Undo Last Label in the tree');
    assert.equal(evaluateWhen(undo.when!, { ...inTree, inputFocus: 'true' }), false, "in the tree's filter box");
    assert.equal(evaluateWhen(undo.when!, { ...inTree, [ContextKeys.labelUndoable]: '' }), false, 'nothing to undo');
  });
});

/**
 * The when clauses above, evaluated: context keys (truthy when non-empty), `a == b` (b a literal), !, &&,
 * || and parentheses, with VS Code's precedence (&& binds tighter than ||). Anything else fails the test.
 */
function evaluateWhen(when: string, context: Record<string, string>): boolean {
  const tokens = when.match(/\(|\)|&&|\|\||==|!=|!|[\w.-]+/g) ?? [];
  assert.equal(tokens.join('').replace(/\s/g, ''), when.replace(/\s/g, ''), `only the supported syntax in: ${when}`);
  let at = 0;
  const value = (name: string) => (name === 'true' ? 'true' : name === 'false' ? '' : (context[name] ?? ''));
  const primary = (): boolean => {
    const t = tokens[at++];
    if (t === '!') return !primary();
    if (t === '(') {
      const v = or();
      assert.equal(tokens[at++], ')', `a closing parenthesis in: ${when}`);
      return v;
    }
    if (tokens[at] === '==' || tokens[at] === '!=') {
      const op = tokens[at++];
      const literal = tokens[at++];
      return (value(t) === literal) === (op === '==');
    }
    return value(t) !== '';
  };
  const and = (): boolean => {
    let v = primary();
    while (tokens[at] === '&&') {
      at++;
      v = primary() && v;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[at] === '||') {
      at++;
      v = and() || v;
    }
    return v;
  };
  const result = or();
  assert.equal(at, tokens.length, `the whole clause was read: ${when}`);
  return result;
}
