// The example records of the diffs being shown. Opening one diff reads its record in the command, in
// both documents, in the decorations of both sides, the flags, the comment threads and the active-example
// context: one read serves them all. A record depends only on the build, so the cache empties whenever
// the session changes (another corpus, a rebuild, a reload); labels and flag decisions are not part of it.
import * as vscode from 'vscode';
import { getExample, type ExampleRecord } from '../core/review/inspect/example';
import { storedDiffOf } from '../core/review/inspect/wholeFile';
import type { CorpusStore } from '../core/ground/store/corpusStore';
import { exampleView, keyDigest, type ExampleView, type ViewMode } from './diff/exampleView';

/** What the cache reads of the session; a shape, not session.ts, which creates the cache (imports point one way). */
export interface ExampleSource {
  /** buildId: the build the inspector shows; a tagged build's examples are in the file too, and are not served. */
  readonly corpus: { readonly store: CorpusStore; readonly buildId?: number } | undefined;
  readonly onDidChange: vscode.Event<unknown>;
}

/** A few diffs at a time: the open ones and the one being opened. */
const KEEP = 8;

export class ExampleCache implements vscode.Disposable {
  private readonly records = new Map<number, ExampleRecord | undefined>();
  /** Views by `<id>/<mode>`: a whole file is parsed from its stored diff once for all of a diff's readers. */
  private readonly views = new Map<string, ExampleView>();
  private corpus: ExampleSource['corpus'];
  private readonly subscription: vscode.Disposable;
  /** Examples whose whole files could not be read, and why: the tree marks them (until the session changes). */
  private readonly problems = new Map<number, string>();
  private readonly problemFound = new vscode.EventEmitter<number>();
  readonly onDidFindProblem = this.problemFound.event;

  constructor(private readonly session: ExampleSource) {
    // Forget the corpus too: holding it would keep a replaced corpus alive (its page cache and its file's
    // descriptor; on Windows its whole file in memory).
    this.subscription = session.onDidChange(() => {
      this.problems.clear();
      this.records.clear();
      this.views.clear();
      this.corpus = undefined;
    });
  }

  /** The example of the open corpus's current build, or undefined when it has none with that id. */
  get(id: number): ExampleRecord | undefined {
    const corpus = this.session.corpus;
    if (!corpus) return undefined;
    if (corpus !== this.corpus) {
      this.records.clear();
      this.views.clear();
      this.corpus = corpus;
    }
    if (this.records.has(id)) {
      const hit = this.records.get(id);
      this.records.delete(id); // most recently used last
      this.records.set(id, hit);
      return hit;
    }
    // A tagged build's examples stay in the file (versions/tags.ts): only the current build's count here.
    const found = getExample(corpus.store, id);
    const record = corpus.buildId === undefined || found?.buildId === corpus.buildId ? found : undefined;
    this.records.set(id, record);
    while (this.records.size > KEEP) this.records.delete(this.records.keys().next().value as number);
    return record;
  }

  /**
   * What an example document shows, or undefined when its example is not in the current build: no
   * record under its id, or (after a rebuild numbered the examples anew) another example's.
   */
  view(ref: { id: number; key: string; view: ViewMode }): ExampleView | undefined {
    const example = this.get(ref.id);
    if (!example || keyDigest(example.key) !== ref.key) return undefined;
    const at = `${ref.id}/${ref.view}`;
    let view = this.views.get(at);
    if (view?.example !== example) {
      view = exampleView(example, ref.view, () => storedDiffOf(this.corpus!.store, example.id));
      this.views.delete(at);
      this.views.set(at, view);
      while (this.views.size > KEEP) this.views.delete(this.views.keys().next().value as string);
      if (view.unreadable && !this.problems.has(ref.id)) {
        this.problems.set(ref.id, view.fallback ?? 'its files cannot be read');
        this.problemFound.fire(ref.id);
      }
    }
    return view;
  }

  /** Why the example's files could not be read when it was opened; undefined: no problem seen. */
  problem(id: number): string | undefined {
    return this.problems.get(id);
  }

  dispose(): void {
    this.subscription.dispose();
    this.problemFound.dispose();
    this.records.clear();
    this.views.clear();
  }
}
