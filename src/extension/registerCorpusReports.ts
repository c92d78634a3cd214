// Verify, export, compare and tag builds, and seal/unseal windows, from the palette and the tree.
import * as vscode from 'vscode';
import path from 'node:path';
import { compareBuilds } from '../core/publish/verify/compareBuilds';
import { tagNameProblem, tagNamesByBuild } from '../core/publish/versions/tags';
import { compareUri } from './diff/uris';
import { storedWindows } from '../core/ground/config/windows';
import { localUserPseudonym } from '../core/ground/privacy/localUser';
import { Commands } from './ids/commands';
import type { CorpusSession, OpenCorpus } from './session';
import type { CorpusStore } from '../core/ground/store/corpusStore';
import type { SaltStore } from './salt';
import { runJobProcess } from './jobs/runJobProcess';
import { runExportJob } from './jobs/exportJob';
import type { CorpusNode } from './tree/nodes';
import { plainText } from './plainText';
import { registerCommand } from './registerCommand';

export function registerCorpusReports(
  context: vscode.ExtensionContext,
  session: CorpusSession,
  salt: SaltStore,
): vscode.Disposable[] {
  const log = session.log;
  return [
    registerCommand(log, Commands.verify, () => verifyBuild(context, session)),
    registerCommand(log, Commands.export, (target?: string) => exportExamples(context, session, target)),
    registerCommand(log, Commands.compareBuilds, (from?: number, to?: number) => compareTwo(session, from, to)),
    // Tests pass the build and the name; from the palette, a pick of builds and an input box that names a bad or taken name.
    registerCommand(log, Commands.tagBuild, (build?: number, name?: string) => tagBuild(session, build, name)),
    registerCommand(log, Commands.sealWindow, (n?: CorpusNode) => sealWindow(session, n)),
    registerCommand(log, Commands.unsealWindow, (n?: CorpusNode) => unsealWindow(session, salt, n)),
  ];
}

/** The open corpus; none is one clear line. */
function need(session: CorpusSession): OpenCorpus {
  const c = session.corpus;
  if (!c) throw new Error('open a corpus first');
  return c;
}

async function verifyBuild(context: vscode.ExtensionContext, session: CorpusSession) {
  const c = need(session);
  await session.flush();
  const r = await runJobProcess(
    context.extensionPath,
    'Review Corpus: Verify Reproducibility',
    { kind: 'verify', configFile: c.configFile },
    session.log,
  );
  session.log.info(r.summary);
  // "Not reproducible" quotes the first differing example: its key (a host path) and texts.
  void (r.ok === false
    ? vscode.window.showWarningMessage(plainText(r.summary))
    : vscode.window.showInformationMessage(plainText(r.summary)));
  return r;
}

async function exportExamples(context: vscode.ExtensionContext, session: CorpusSession, target?: string) {
  const c = need(session);
  const out =
    target ??
    (
      await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.file(path.join(path.dirname(c.configFile), 'examples.jsonl')),
        filters: { 'JSON Lines': ['jsonl'] },
        title: 'Export kept examples',
      })
    )?.fsPath;
  if (!out) return undefined;
  return runExportJob(context.extensionPath, session, 'Review Corpus: Export', {
    kind: 'export',
    configFile: c.configFile,
    out,
  });
}

async function compareTwo(session: CorpusSession, from?: number, to?: number) {
  const c = need(session);
  const builds = buildPicks(c.store);
  if (builds.length < 2 && (from === undefined || to === undefined))
    throw new Error('there is only one build; rebuild with changed rules first');
  const pick = async (title: string) => Number((await vscode.window.showQuickPick(builds, { title }))?.id);
  const a = from ?? (await pick('Compare from which build?'));
  const b = to ?? (await pick('…to which build?'));
  if (!a || !b) return undefined;
  const cmp = compareBuilds(c.store, a, b);
  await vscode.window.showTextDocument(compareUri(a, b), { preview: true });
  return cmp;
}

async function tagBuild(session: CorpusSession, build?: number, name?: string) {
  const c = need(session);
  const builds = buildPicks(c.store);
  if (builds.length === 0) throw new Error('there is no build to tag yet; run Rebuild first');
  const id = build ?? (await vscode.window.showQuickPick(builds, { title: 'Tag which build?' }))?.id;
  if (id === undefined) return undefined;
  const tag =
    name ??
    (await vscode.window.showInputBox({
      title: `Tag build ${id}`,
      prompt:
        'A name that freezes the build: later rebuilds keep its examples, and the CLI takes it wherever it takes a build (e.g. v3)',
      validateInput: (value) => (value === '' ? undefined : tagNameProblem(c.store, value)),
    }));
  if (!tag) return undefined;
  session.edit({ kind: 'tag', buildId: id, name: tag, at: new Date().toISOString() });
  void vscode.window.showInformationMessage(plainText(`Tagged build ${id} as "${tag}".`));
  return tag;
}

async function sealWindow(session: CorpusSession, n?: CorpusNode): Promise<void> {
  const name = await pickWindow(session, false, n);
  if (!name) return;
  const hash = session.edit({ kind: 'seal', window: name, at: new Date().toISOString() }) ?? '';
  windowsNote(`Sealed window "${name}" (sha256 ${hash.slice(0, 12)}…).`, storedWindows(need(session).store));
}

async function unsealWindow(session: CorpusSession, salt: SaltStore, n?: CorpusNode): Promise<void> {
  const name = await pickWindow(session, true, n);
  if (!name) return;
  const ok = await vscode.window.showWarningMessage(
    plainText(
      `Unseal window "${name}"? The next fetch reads it, and it can never be resealed once fetched. Your pseudonym and the time are recorded.`,
    ),
    { modal: true },
    'Unseal',
  );
  if (ok !== 'Unseal') return;
  const s = await salt.getOrAsk();
  if (!s) throw new Error('a salt is needed to record who unsealed the window');
  session.edit({ kind: 'unseal', window: name, rater: localUserPseudonym(s), at: new Date().toISOString() });
  void vscode.window.showInformationMessage(plainText(`Unsealed window "${name}". Run "Fetch from Hosts" to read it.`));
}

/**
 * The window to seal (or unseal): the node's, or one picked of those that can be. None can: an
 * information message saying which windows are sealed and which were fetched (and so are not sealed
 * against earlier reads), which is a state of the corpus, not a failure.
 */
async function pickWindow(session: CorpusSession, sealed: boolean, n?: CorpusNode): Promise<string | undefined> {
  const stored = storedWindows(need(session).store);
  if (n?.type === 'window' && n.group.window) {
    const w = stored.find((x) => x.name === n.group.window);
    if (!sealed && w?.sealed === 1) return void windowsNote(`Window "${w.name}" is sealed already.`, stored);
    if (!sealed && w?.fetched === 1) return void windowsNote(`Window "${w.name}" cannot be sealed.`, stored);
    return n.group.window;
  }
  // Only a window never fetched can be sealed (sealWindow refuses the others): offer those alone.
  const names = stored.filter((w) => (sealed ? w.sealed === 1 : w.sealed === 0 && w.fetched === 0)).map((w) => w.name);
  if (names.length === 0)
    return void windowsNote(sealed ? 'No window is sealed, so none can be unsealed.' : 'Nothing to seal.', stored);
  const picked = await vscode.window.showQuickPick(
    names.map((name) => ({ label: plainText(name), name })),
    { title: sealed ? 'Unseal which window?' : 'Seal which window?' },
  );
  return picked?.name;
}

/** The finished builds, newest first, for a QuickPick: each one's time, rules version and tags. */
/** `head`, then which windows are sealed and which were fetched before any seal, as information. */
function windowsNote(head: string, stored: ReturnType<typeof storedWindows>): void {
  const sealedNow = stored.filter((w) => w.sealed === 1).map((w) => `"${w.name}"`);
  const fetched = stored.filter((w) => w.sealed === 0 && w.fetched === 1).map((w) => `"${w.name}"`);
  const lines = [
    head,
    sealedNow.length ? `Sealed: ${sealedNow.join(', ')}.` : '',
    fetched.length
      ? `Fetched already, so not sealed against earlier reads: ${fetched.join(', ')} (a window is sealed before its first fetch).`
      : '',
  ];
  void vscode.window.showInformationMessage(plainText(lines.filter(Boolean).join(' ')));
}

function buildPicks(store: CorpusStore): (vscode.QuickPickItem & { id: number })[] {
  const tags = tagNamesByBuild(store);
  return store
    .all<{ id: number; finished_at: string; rules_version: string }>(
      'SELECT id, finished_at, rules_version FROM builds WHERE finished_at IS NOT NULL ORDER BY id DESC',
    )
    .map((b) => ({
      label: `Build ${b.id}`,
      id: b.id,
      description: plainText(
        [...(tags.get(b.id) ?? []).map((t) => `tag ${t}`), b.finished_at, `rules ${b.rules_version.slice(0, 12)}`].join(
          ' · ',
        ),
      ),
    }));
}
