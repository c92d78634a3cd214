// Filter… : narrow the tree by organization, window, rule, flagged, label, the judge's quality and text in comments.
// Values of different kinds must all hold; of one kind, one value at a time (the picker unpicks the other).
// The active filter shows in the view's message and description (registerTree.ts).
import * as vscode from 'vscode';
import { LABELS } from '../../core/review/labels/labels';
import { Commands } from '../ids/commands';
import type { CorpusSession } from '../session';
import type { CorpusTreeProvider, TreeFilter } from './treeProvider';
import { plainText } from '../plainText';
import { registerCommand } from '../registerCommand';
import { COMMENT_QUALITIES, type CommentQuality } from '../../core/build/judgments/types';
import { thresholdsOf } from '../../core/build/judgments/settings';
import type { QualityFilter } from '../../core/review/quality/qualityFilter';
import type { CorpusConfig } from '../../core/ground/config/types';
import type { CorpusStore } from '../../core/ground/store/corpusStore';

/** One choice of the picker; `group` names the kind of which only one value can hold (one organization, …). */
type FilterPick = vscode.QuickPickItem & {
  kind?: vscode.QuickPickItemKind;
  group?: string;
  apply?: (f: TreeFilter) => void;
  set?: (f: TreeFilter) => boolean;
};

export function describeFilter(f: TreeFilter): string {
  const parts = [
    f.org,
    f.window,
    f.rule,
    f.flagged ? 'flagged' : undefined,
    f.audit ? 'audit sample' : undefined,
    f.label ? `label ${f.label}` : undefined,
    f.quality ? `quality ${f.quality.quality}` : undefined,
    f.text ? `“${f.text}”` : undefined,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** The provider is passed in, not the tree of registerTree.ts, which calls this: imports point one way. */
export function registerFilter(
  session: CorpusSession,
  provider: CorpusTreeProvider,
  updateDescription: () => void,
): vscode.Disposable[] {
  const apply = (f: TreeFilter) => {
    provider.filter = f;
    provider.refresh();
    updateDescription();
  };
  return [
    registerCommand(session.log, Commands.filter, async (preset?: TreeFilter) => {
      if (preset) return apply(preset);
      const corpus = session.corpus;
      if (!corpus || corpus.buildId === undefined)
        return void vscode.window.showWarningMessage('Review Corpus: open a built corpus first.');
      const current = provider.filter;
      const items = [...corpusChoices(corpus.store, corpus.buildId), ...exampleChoices(corpus.config, current)];
      const picked = await pickOnePerGroup(items, current);
      if (!picked) return;
      const f: TreeFilter = {};
      for (const p of picked) p.apply?.(f);
      if (picked.some((p) => p.group === 'text')) {
        const text = await vscode.window.showInputBox({
          title: 'Text in comments',
          prompt: 'Case-insensitive substring',
          value: current.text,
        });
        if (text) f.text = text;
      }
      apply(f);
    }),
    registerCommand(session.log, Commands.clearFilter, () => apply({})),
  ];
}

/** A value of one kind (`group`): how it sets a filter, and whether a filter holds it. */
function choice(
  group: string,
  label: string,
  description: string | undefined,
  apply: (f: TreeFilter) => void,
  set: (f: TreeFilter) => boolean,
): FilterPick {
  return { label, description, group, apply, set };
}

/** The organizations, windows and rules of the corpus and its build. */
function corpusChoices(store: CorpusStore, buildId: number): FilterPick[] {
  const orgs = store.all<{ org: string }>('SELECT org FROM hosts ORDER BY org').map((r) => r.org);
  const windows = store.all<{ name: string }>('SELECT name FROM windows ORDER BY from_date').map((r) => r.name);
  const rules = store
    .all<{ rule: string }>('SELECT DISTINCT rule FROM decisions WHERE build_id = ? ORDER BY rule', [buildId])
    .map((r) => r.rule);
  return [
    { label: 'Organization', kind: vscode.QuickPickItemKind.Separator },
    ...orgs.map((o) =>
      choice(
        'org',
        plainText(o),
        'organization',
        (f) => {
          f.org = o;
        },
        (f) => f.org === o,
      ),
    ),
    { label: 'Window', kind: vscode.QuickPickItemKind.Separator },
    ...windows.map((w) =>
      choice(
        'window',
        plainText(w),
        'window',
        (f) => {
          f.window = w;
        },
        (f) => f.window === w,
      ),
    ),
    { label: 'Rule', kind: vscode.QuickPickItemKind.Separator },
    choice(
      'rule',
      'kept',
      'the examples the build kept',
      (f) => {
        f.rule = 'kept';
      },
      (f) => f.rule === 'kept',
    ),
    ...rules
      .filter((r) => r !== 'kept')
      .map((r) =>
        choice(
          'rule',
          plainText(r),
          'rule',
          (f) => {
            f.rule = r;
          },
          (f) => f.rule === r,
        ),
      ),
  ];
}

/** Flagged, the audit sample, labels, the judge's quality classes and text in comments. */
function exampleChoices(config: CorpusConfig, current: TreeFilter): FilterPick[] {
  return [
    { label: 'Examples', kind: vscode.QuickPickItemKind.Separator },
    choice(
      'flagged',
      'Flagged only',
      'examples with an open flag',
      (f) => {
        f.flagged = true;
      },
      (f) => f.flagged === true,
    ),
    choice(
      'audit',
      'Audit sample',
      'examples of the label audit sample (Draw Label Audit Sample…)',
      (f) => {
        f.audit = true;
      },
      (f) => f.audit === true,
    ),
    ...LABELS.map((l) =>
      choice(
        'label',
        `Label: ${l}`,
        'examples with this label',
        (f) => {
          f.label = l;
        },
        (f) => f.label === l,
      ),
    ),
    ...qualityChoices(config).map((q) =>
      choice(
        'quality',
        `Quality: ${q.quality}`,
        QUALITY_HELP[q.quality],
        (f) => {
          f.quality = q;
        },
        (f) => f.quality?.quality === q.quality,
      ),
    ),
    choice(
      'text',
      TEXT_CHOICE,
      current.text ? `now “${plainText(current.text)}”; asks for the text` : 'asks for the text',
      () => undefined,
      (f) => Boolean(f.text),
    ),
  ];
}

const TEXT_CHOICE = 'Text in comments…';

const QUALITY_HELP: Record<CommentQuality, string> = {
  high: 'a kept comment the judge found civil, clear and concise',
  low: 'a kept comment the judge found uncivil, unclear or verbose',
  irrelevant: 'a kept comment the judge found irrelevant',
  unjudged: 'a kept comment without a judgment',
};

/** The four classes, with the model and thresholds the report uses (the config's judge section). */
function qualityChoices(config: CorpusConfig): QualityFilter[] {
  const model = config.judge?.model;
  return COMMENT_QUALITIES.map((quality) => ({
    quality,
    ...(model === undefined ? {} : { model }),
    thresholds: thresholdsOf(config),
  }));
}

/**
 * A multi-select quick pick in which picking a value of a kind (an organization, a window, a rule, a label)
 * unpicks the other value of that kind, as the placeholder says; opens with the current filter picked.
 */
function pickOnePerGroup(items: FilterPick[], current: TreeFilter): Promise<readonly FilterPick[] | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<FilterPick>();
    qp.title = 'Filter the corpus tree';
    qp.placeholder = 'Pick at most one value of each kind; every value picked must hold';
    qp.canSelectMany = true;
    qp.items = items;
    let selected = items.filter((i) => i.set?.(current));
    qp.selectedItems = selected;
    let done = false;
    qp.onDidChangeSelection((now) => {
      const added = now.filter((i) => !selected.includes(i));
      const keep = now.filter((i) => added.includes(i) || !added.some((a) => a.group === i.group));
      selected = keep;
      if (keep.length !== now.length) qp.selectedItems = keep;
    });
    qp.onDidAccept(() => {
      done = true;
      resolve(selected);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}
