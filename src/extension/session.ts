// The open corpus: its config, its file (loaded read-only into memory) and its latest build.
// Features listen to onDidChange and re-read; long work reloads the session when it has saved.
import * as vscode from 'vscode';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CorpusStore } from '../core/store/corpusStore';
import { corpusDbPath, loadCorpusConfig } from '../core/config/loadConfig';
import type { CorpusConfig } from '../core/config/types';
import { latestBuildId } from '../core/inspect/groups';
import { ContextKeys } from './ids/contextKeys';
import { SETTINGS_SECTION, Settings } from './ids/settings';

/** How long `mutate` waits for more changes before saving them together. */
const SAVE_DELAY_MS = 750;

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

  constructor(readonly log: vscode.LogOutputChannel) {}

  get corpus(): OpenCorpus | undefined {
    return this.current;
  }

  /** The corpus.json last opened, even when its corpus file does not exist yet (before a first fetch). */
  configFile: string | undefined;

  /** The corpus.json to open: the setting, else corpus.json at a workspace folder's root. */
  findConfig(): string | undefined {
    const setting = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>(Settings.corpus, '');
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (setting) return path.isAbsolute(setting) || folders.length === 0 ? setting : path.join(folders[0].uri.fsPath, setting);
    for (const f of folders) {
      const candidate = path.join(f.uri.fsPath, 'corpus.json');
      if (existsSync(candidate)) return candidate;
    }
    return undefined;
  }

  async open(configFile: string): Promise<OpenCorpus | undefined> {
    await this.flush(); // the corpus shown now, or its file re-read: pending changes go to disk first
    const config = loadCorpusConfig(configFile);
    this.configFile = configFile;
    const dbFile = corpusDbPath(configFile, config);
    if (!existsSync(dbFile)) {
      this.log.info(`${configFile}: no corpus file yet (${dbFile}); run "Review Corpus: Fetch from Hosts"`);
      this.replace(undefined);
      return undefined;
    }
    const store = await CorpusStore.open(dbFile);
    const corpus: OpenCorpus = { configFile, config, dbFile, store, buildId: latestBuildId(store) };
    this.log.info(`opened ${dbFile} (build ${corpus.buildId ?? 'none'})`);
    this.replace(corpus);
    return corpus;
  }

  /**
   * A small write from the UI (a flag decision, a label): applied in one transaction and announced at
   * once; the file is saved atomically in the background shortly after, one save for a burst of
   * writes (a whole-file save of a large corpus takes seconds). Refused while a worker job owns the
   * file, so neither write is lost. `flush` writes what is pending.
   */
  mutate<T>(work: (store: CorpusStore) => T): T {
    const corpus = this.current;
    if (!corpus) throw new Error('no corpus is open');
    if (this.busy) throw new Error('a fetch or rebuild is running; try again when it has finished');
    const result = corpus.store.transaction(() => work(corpus.store));
    this.unsaved = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flush().catch((e: Error) => {
      this.log.error(`saving ${corpus.dbFile}: ${e.message}`);
      void vscode.window.showErrorMessage(`Review Corpus: could not save ${corpus.dbFile} (${e.message}); the change is kept in memory and saved again with the next one`);
    }), SAVE_DELAY_MS);
    this.changed.fire(corpus);
    return result;
  }

  /** Changes made by `mutate` that are not in the file yet. */
  get hasUnsavedChanges(): boolean {
    return this.unsaved || this.saving !== undefined;
  }

  /** Saves what `mutate` changed, if anything; resolves once it is on disk. Jobs that read the file call it first. */
  async flush(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    while (this.saving) await this.saving.catch(() => undefined); // one save at a time, in order
    const corpus = this.current;
    if (!this.unsaved || !corpus) return;
    this.unsaved = false;
    this.saving = corpus.store.saveInBackground();
    try {
      await this.saving;
    } catch (e) {
      this.unsaved = true;
      throw e;
    } finally {
      this.saving = undefined;
    }
  }

  private unsaved = false;
  private saving: Promise<void> | undefined;
  private saveTimer: NodeJS.Timeout | undefined;

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
    this.changed.fire(next);
  }

  dispose(): void {
    clearTimeout(this.saveTimer);
    this.current?.store.close();
    this.current = undefined;
    this.changed.dispose();
  }
}
