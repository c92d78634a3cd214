// The open corpus: its config, its file (read as queries need it: SMALL_EDITS_OPEN) and its latest build.
// Features listen to onDidChange and re-read; long work reloads the session when it has saved.
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CorpusStore, SMALL_EDITS_OPEN } from '../core/ground/store/corpusStore';
import { corpusDbPath } from '../core/ground/config/configFile';
import { loadCorpusConfig } from '../core/rules/corpusJson/loadConfig';
import type { CorpusConfig } from '../core/ground/config/types';
import { applyEdit, type CorpusEdit } from '../core/jobs/edits';
import { latestBuildId } from '../core/review/inspect/groups';
import { BackgroundSaver } from './backgroundSaver';
import { ExampleCache } from './exampleCache';
import { ContextKeys, TreeStates, type TreeState } from './ids/contextKeys';
import { SETTINGS_SECTION, Settings } from './ids/settings';
import { plainText } from './plainText';
import { showError } from './registerCommand';

export interface OpenCorpus {
  configFile: string;
  config: CorpusConfig;
  dbFile: string;
  store: CorpusStore;
  buildId: number | undefined;
}

export class CorpusSession implements vscode.Disposable {
  private current: OpenCorpus | undefined;
  private readonly changed = new vscode.EventEmitter<OpenCorpus | undefined>();
  readonly onDidChange = this.changed.event;
  /** The example records of the open corpus's current build, read once for every view of one diff. */
  readonly examples = new ExampleCache(this);

  /** @param workerFile dist/worker.js, which also runs the background saver */
  constructor(
    readonly log: vscode.LogOutputChannel,
    private readonly workerFile: string,
  ) {}

  get corpus(): OpenCorpus | undefined {
    return this.current;
  }

  /** The corpus.json last opened, even when its corpus file does not exist yet (before a first fetch). */
  configFile: string | undefined;

  /** The corpus file named by configFile, and why it could not be opened (a blob pack missing…); undefined: it opened, or does not exist yet. */
  dbFile: string | undefined;
  openProblem: string | undefined;

  /** The corpus.json to open: the setting, else corpus.json at a workspace folder's root. */
  findConfig(): string | undefined {
    const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>(Settings.corpus, '');
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (setting)
      return path.isAbsolute(setting) || folders.length === 0 ? setting : path.join(folders[0].uri.fsPath, setting);
    for (const f of folders) {
      const candidate = path.join(f.uri.fsPath, 'corpus.json');
      if (existsSync(candidate)) return candidate;
    }
    return undefined;
  }

  /**
   * Opens are serialized: two that overlapped (a reload after a save and an Open Corpus…) could finish
   * in either order, and the older would then replace the newer. In call order, the last asked wins.
   */
  open(configFile: string): Promise<OpenCorpus | undefined> {
    const next = this.opening.then(() => this.openNow(configFile));
    this.opening = next.catch(() => undefined);
    return next;
  }

  private opening: Promise<unknown> = Promise.resolve();

  private async openNow(configFile: string): Promise<OpenCorpus | undefined> {
    await this.flush(); // the corpus shown now, or its file re-read: pending changes go to disk first
    const config = loadCorpusConfig(configFile);
    this.configFile = configFile;
    const dbFile = corpusDbPath(configFile, config);
    this.dbFile = dbFile;
    this.openProblem = undefined;
    if (!existsSync(dbFile)) {
      this.log.info(`${configFile}: no corpus file yet (${dbFile}); run "Review Corpus: Fetch from Hosts"`);
      this.replace(undefined);
      return undefined;
    }
    let store: CorpusStore;
    try {
      store = await CorpusStore.open(dbFile, SMALL_EDITS_OPEN);
    } catch (e) {
      this.openProblem = e instanceof Error ? e.message : String(e);
      // With no corpus open, open documents read again why theirs cannot be shown (unavailable.ts).
      if (!this.current) this.changed.fire(undefined);
      throw e;
    }
    const corpus: OpenCorpus = { configFile, config, dbFile, store, buildId: latestBuildId(store) };
    this.log.info(`opened ${dbFile} (build ${corpus.buildId ?? 'none'})`);
    this.replace(corpus);
    return corpus;
  }

  /**
   * A small change from the UI (a label, flag decisions, sealing): applied to the open copy in one
   * transaction and announced at once; the file is saved by a worker thread (BackgroundSaver), since
   * saving a large corpus takes seconds. Refused while a job owns the file, so neither write is lost.
   * Returns the seal hash for a 'seal' edit.
   */
  edit(edit: CorpusEdit): string | undefined {
    const corpus = this.current;
    if (!corpus) throw new Error('no corpus is open');
    if (this.busy) throw new Error('a fetch or rebuild is running; try again when it has finished');
    const result = corpus.store.transaction(() => applyEdit(corpus.store, edit));
    this.saver ??= new BackgroundSaver(
      this.workerFile,
      corpus.dbFile,
      (message) => {
        showError(
          this.log,
          `could not save ${corpus.dbFile} (${message}); your changes are kept in memory and saved with the next one`,
        );
      },
      (message) => {
        // Another writer (a CLI fetch or build) holds the file: the save waits for it, nothing is lost.
        this.log.warn(`saving waits: ${message}`);
        void vscode.window.showWarningMessage(
          plainText(`Review Corpus: your changes are kept and saved once the file is free. ${message}`),
        );
      },
    );
    this.saver.submit(edit);
    this.changed.fire(corpus);
    return result;
  }

  /** Edits made by `edit` that are not in the file yet. */
  get hasUnsavedChanges(): boolean {
    return (this.saver?.pending ?? 0) > 0;
  }

  /** Puts every edit in the file and stops the saver; anything about to read or replace the file calls it first. */
  async flush(): Promise<void> {
    const saver = this.saver;
    this.saver = undefined;
    await saver?.close();
  }

  private saver: BackgroundSaver | undefined;

  /** Set while a worker job writes the corpus file. */
  busy = false;

  /** Re-reads the corpus file after a fetch or build saved it. */
  async reload(): Promise<void> {
    if (this.configFile) await this.open(this.configFile);
  }

  private replace(next: OpenCorpus | undefined): void {
    this.current?.store.close();
    this.current = next;
    void vscode.commands.executeCommand('setContext', ContextKeys.corpusOpen, next !== undefined);
    void vscode.commands.executeCommand('setContext', ContextKeys.treeState, this.state);
    this.changed.fire(next);
  }

  /** What the corpus view can show; each state has its own welcome text (package.json viewsWelcome). */
  get state(): TreeState {
    const c = this.current;
    if (!c) return this.configFile ? TreeStates.notFetched : TreeStates.none;
    if (c.buildId !== undefined) return TreeStates.built;
    return c.store.scalar('SELECT 1 FROM changes LIMIT 1') === undefined ? TreeStates.notFetched : TreeStates.notBuilt;
  }

  dispose(): void {
    void this.saver?.close(); // deactivate() has already awaited flush(); this only stops an idle worker
    this.current?.store.close();
    this.current = undefined;
    this.examples.dispose();
    this.changed.dispose();
  }
}
