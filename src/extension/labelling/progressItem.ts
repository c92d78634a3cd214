// Labelling progress in the status bar while an example diff is shown: how many examples of the audit
// sample, or of the tree's filter (Kept when it names no rule), carry your label, of how many it holds.
import * as vscode from 'vscode';
import { localUserPseudonym } from '../../core/ground/privacy/localUser';
import {
  describeProgress,
  scopeLabelled,
  scopeTotal,
  totalFollowsEdits,
  type LabelProgress,
  type LabelScope,
} from '../../core/review/labels/labelProgress';
import type { ActiveExample } from '../diff/activeExample';
import { Commands } from '../ids/commands';
import { Disposable } from '../lifecycle';
import { plainText } from '../plainText';
import type { SaltStore } from '../salt';
import type { CorpusSession } from '../session';
import { describeFilter } from '../tree/registerFilter';
import type { CorpusTreeProvider, TreeFilter } from '../tree/treeProvider';

/** What the labeller goes through under a filter: "audit sample", "kept examples, filter: openstack · train". */
export function describeScope(f: TreeFilter): string {
  const rest = describeFilter({ ...f, audit: undefined, rule: undefined });
  const what = f.audit
    ? 'audit sample'
    : f.rule && f.rule !== 'kept'
      ? `examples removed by ${f.rule}`
      : 'kept examples';
  return `${what}${rest ? `, filter: ${rest}` : ''}`;
}

export class LabelProgressItem extends Disposable {
  private readonly item = this._register(
    vscode.window.createStatusBarItem('reviewCorpus.labelProgress', vscode.StatusBarAlignment.Left, 9),
  );
  /** Totals by scope for the store they were counted in: they change with the build or the filter, not with a label. */
  private totals = new Map<string, number>();
  private totalsStore: unknown;
  private rater: { salt: string; pseudonym: string } | undefined;
  private updating = Promise.resolve();

  constructor(
    private readonly session: CorpusSession,
    private readonly salt: SaltStore,
    private readonly active: ActiveExample,
    private readonly provider: CorpusTreeProvider,
  ) {
    super();
    this.item.name = 'Review Corpus Labelling';
    this.item.command = Commands.filter;
    const update = () => void this.update();
    this._register(session.onDidChange(update));
    this._register(active.onDidChange(update));
    this._register(provider.onDidChangeTreeData(update)); // a filter applied refreshes the tree
    update();
  }

  /** Your labels of the current scope and its size; undefined without a built corpus or a salt. */
  async current(): Promise<(LabelProgress & { scope: string }) | undefined> {
    const corpus = this.session.corpus;
    const salt = await this.salt.get();
    if (!corpus || corpus.buildId === undefined || !salt) return undefined;
    if (this.rater?.salt !== salt) this.rater = { salt, pseudonym: localUserPseudonym(salt) };
    const filter = this.provider.filter;
    const scope: LabelScope = { ...filter };
    if (this.totalsStore !== corpus.store) this.totals = new Map();
    this.totalsStore = corpus.store;
    const key = JSON.stringify([corpus.buildId, filter]);
    let total = totalFollowsEdits(scope) ? undefined : this.totals.get(key);
    if (total === undefined) {
      total = scopeTotal(corpus.store, corpus.buildId, scope);
      this.totals.set(key, total);
    }
    const labelled = scopeLabelled(corpus.store, corpus.buildId, this.rater.pseudonym, scope);
    return { labelled, total, scope: describeScope(filter) };
  }

  /** Shows the progress while an example diff is active (one update at a time, in order). */
  update(): Promise<void> {
    this.updating = this.updating.then(() => this.render()).catch((e: Error) => this.session.log.warn(e.message));
    return this.updating;
  }

  private async render(): Promise<void> {
    const p = this.active.example ? await this.current() : undefined;
    if (!p) return this.item.hide();
    this.item.text = `$(tag) ${describeProgress(p)}`;
    const words = `Labelled by you: ${p.labelled.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} (${p.scope})`;
    this.item.tooltip = plainText(
      `${words}. Label with Ctrl+Alt+1, 2 or 3; Ctrl+Z undoes the last label. Click to filter.`,
    );
    this.item.accessibilityInformation = { label: plainText(words) };
    this.item.show();
  }
}
