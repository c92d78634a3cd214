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
   * A small write from the UI (a flag decision, a label): applied in one transaction, saved atomically,
   * then announced. Refused while a worker job owns the file, so neither write is lost.
   */
  mutate<T>(work: (store: CorpusStore) => T): T {
    const corpus = this.current;
    if (!corpus) throw new Error('no corpus is open');
    if (this.busy) throw new Error('a fetch or rebuild is running; try again when it has finished');
    const result = corpus.store.transaction(() => work(corpus.store));
    corpus.store.save();
    this.changed.fire(corpus);
    return result;
  }

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
    this.current?.store.close();
    this.current = undefined;
    this.changed.dispose();
  }
}
