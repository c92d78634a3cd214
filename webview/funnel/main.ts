// The funnel report page: per organization, the funnel table (click a rule to reveal it in the tree),
// a chart of removals per rule, window sizes, target_in_comment counts and label shares.
import { registerToolkit } from './toolkit';
import { barChart, el, grid } from './elements';
import type { FunnelReportData } from '../../src/extension/funnel/funnelData';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscode = acquireVsCodeApi();
registerToolkit();

const show = (v: number | null | undefined) => (v === null || v === undefined ? 'not counted' : v.toLocaleString('en-US'));

function render(data: FunnelReportData): void {
  const app = document.getElementById('app')!;
  app.replaceChildren();
  const f = data.funnel;
  app.append(el('h1', `Funnel: ${f.corpus}`), el('p', `Build ${f.build} · rules ${f.rulesVersion.slice(0, 12)} · ${f.createdAt}`, 'meta'));
  for (const [org, o] of Object.entries(f.organizations)) {
    const section = el('section');
    section.dataset.org = org;
    section.append(el('h2', org));
    section.append(grid(['stage', 'rule', 'unit', 'removed'], o.funnel.map((r) => ({
      cells: [r.stage, r.rule, r.unit, show(r.removed)],
      title: `Reveal ${r.rule} in the tree`,
      onClick: () => vscode.postMessage({ type: 'reveal', org, window: firstWindowWith(data, org, r.rule), rule: r.rule }),
    })), `${org} funnel`));
    section.append(el('h3', 'Removals per rule'), barChart(o.funnel.map((r) => ({ label: r.rule, value: r.removed ?? 0 })), `${org}: removals per rule`));
    section.append(el('h3', 'Windows'), grid(['window', 'examples', 'target_in_comment'], Object.entries(o.windows).map(([w, v]) => ({
      cells: [w, v.sealed ? 'sealed' : show(v.examples), show(v.counters.target_in_comment)],
    })), `${org} windows`));
    if (o.halves) {
      const h = o.halves;
      const mix = (m: Record<string, number>) => Object.entries(m).map(([k, n]) => `${k} ${n}`).join(', ');
      section.append(el('h3', `Halves of ${h.window} (by ${h.by}) · suffix TVD ${h.suffixTvd}`), grid(['half', 'examples', 'suffix mix', 'target_in_comment'],
        (['a', 'b'] as const).map((k) => ({ cells: [k, show(h[k].examples), mix(h[k].suffixes), show(h[k].target_in_comment)] })), `${org} halves`));
    }
    section.append(el('h3', 'Counters'), grid(['counter', 'value'], Object.entries(o.counters).map(([k, v]) => ({ cells: [k, show(v)] })), `${org} counters`));
    section.append(el('h3', 'Per window and rule'), grid(['window', 'rule', 'unit', 'count'],
      data.windows.filter((w) => w.org === org).flatMap((w) => [
        { cells: [w.window ?? '(no window)', 'kept', 'examples', show(w.kept)], onClick: () => vscode.postMessage({ type: 'reveal', org, window: w.window, rule: 'kept' }) },
        ...w.rules.map((r) => ({ cells: [w.window ?? '(no window)', r.rule, r.unit, show(r.count)], onClick: () => vscode.postMessage({ type: 'reveal', org, window: w.window, rule: r.rule }) })),
      ]), `${org} per window`));
    app.append(section);
  }
  app.append(el('h2', 'Open flags'));
  if (data.openFlags.length === 0) app.append(el('p', 'No open flags.'));
  else app.append(grid(['example', 'reason', 'what matched'], data.openFlags.map((f) => ({ cells: [f.exampleKey, f.reason, f.detail] })), 'open flags'));
  app.append(el('h2', 'Labels'));
  if (data.labels.raters.length === 0) app.append(el('p', 'No labels yet.'));
  else {
    app.append(grid(['rater', 'labelled', 'answers', 'does not', 'unsure', 'share answering'], data.labels.raters.map((r) => ({
      cells: [r.rater, show(r.total), show(r.counts.answers), show(r.counts.does_not), show(r.counts.unsure), `${(r.answersShare * 100).toFixed(1)}%`],
    })), 'label shares'));
    if (data.labels.agreement.length) {
      app.append(grid(['rater A', 'rater B', 'both labelled', "Cohen's κ"], data.labels.agreement.map((a) => ({
        cells: [a.raterA, a.raterB, show(a.both), a.kappa === null ? 'not defined' : a.kappa.toFixed(3)],
      })), 'rater agreement'));
    }
  }
}

function firstWindowWith(data: FunnelReportData, org: string, rule: string): string | null {
  return data.windows.find((w) => w.org === org && w.rules.some((r) => r.rule === rule))?.window ?? null;
}

window.addEventListener('message', (e: MessageEvent<{ type: string; data: FunnelReportData }>) => {
  if (e.data?.type === 'data') render(e.data.data);
});
vscode.postMessage({ type: 'ready' });
