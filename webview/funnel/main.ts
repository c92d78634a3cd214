// The funnel report page: the funnel as a picture (click a row to reveal it in the tree, save it as
// SVG), then per organization the funnel table (the same numbers), a chart of removals per rule,
// window sizes, target_in_comment counts and label shares.
import { registerToolkit } from './toolkit';
import { barChart, el, grid } from './elements';
import { drawPicture, standaloneSvg } from './picture';
import type { FunnelReportData } from '../../src/extension/funnel/funnelData';
import { formatCount as show, type RevealTarget } from '../../src/core/export/funnelPicture';

interface PageState { data?: FunnelReportData }
declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): PageState | undefined; setState(s: PageState): void };
const vscode = acquireVsCodeApi();
registerToolkit();

const reveal = (data: FunnelReportData, r: RevealTarget) =>
  vscode.postMessage({ type: 'reveal', org: r.org, window: r.window === undefined ? firstWindowWith(data, r.org, r.rule) : r.window, rule: r.rule });

let picture: SVGSVGElement | undefined;

function render(data: FunnelReportData): void {
  const app = document.getElementById('app')!;
  app.replaceChildren();
  const f = data.funnel;
  app.append(el('h1', `Funnel: ${data.corpus}`), el('p', `Build ${f.build}${f.corpus === data.corpus ? '' : ` (built as ${f.corpus})`} · rules ${f.rulesVersion.slice(0, 12)} · ${f.createdAt}`, 'meta'));
  const save = el('button', 'Save as SVG…', 'save');
  save.type = 'button';
  save.addEventListener('click', () => picture && vscode.postMessage({ type: 'saveSvg', svg: standaloneSvg(picture) }));
  picture = drawPicture(data.picture, (r) => reveal(data, r));
  const frame = el('div', undefined, 'picture-frame');
  frame.append(picture);
  app.append(el('h2', 'The funnel, as a picture'), el('p', 'For each organization, the units left after each rule (solid) and the units it removed (pale), '
    + 'each unit kind on its own scale: where the unit changes (changes, comments, hunks) the counts are of different things. '
    + 'Hover a row for its numbers; click it to reveal it in the tree.', 'meta'), save, frame);
  for (const [org, o] of Object.entries(f.organizations)) {
    const section = el('section');
    section.dataset.org = org;
    section.append(el('h2', org));
    section.append(grid(['stage', 'rule', 'unit', 'removed', 'remaining'], data.counts.filter((r) => r.org === org).map((r) => ({
      cells: [r.stage, r.rule, r.unit, show(r.removed), show(r.remaining)],
      title: `Reveal ${r.rule} in the tree`,
      onClick: () => reveal(data, { org, rule: r.rule }),
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
        { cells: [w.window ?? '(no window)', 'kept', 'examples', show(w.kept)], onClick: () => reveal(data, { org, window: w.window, rule: 'kept' }) },
        ...w.rules.map((r) => ({ cells: [w.window ?? '(no window)', r.rule, r.unit, show(r.count)], onClick: () => reveal(data, { org, window: w.window, rule: r.rule }) })),
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

function renderEmpty(message: string): void {
  picture = undefined;
  document.getElementById('app')!.replaceChildren(el('p', message));
}

window.addEventListener('message', (e: MessageEvent<{ type: string; data?: FunnelReportData; message?: string; requestId?: number }>) => {
  const m = e.data;
  if (m?.type === 'data' && m.data) {
    vscode.setState({ data: m.data });
    render(m.data);
    vscode.postMessage({ type: 'rendered', build: m.data.funnel.build });
  } else if (m?.type === 'empty') {
    vscode.setState({});
    renderEmpty(String(m.message ?? ''));
    vscode.postMessage({ type: 'rendered', build: null });
  } else if (m?.type === 'serialize') {
    vscode.postMessage({ type: 'saveSvg', requestId: m.requestId, svg: picture ? standaloneSvg(picture) : null });
  }
});
// Shown again after being hidden: draw what was last shown at once, then ask for the current numbers.
const last = vscode.getState()?.data;
if (last) render(last);
vscode.postMessage({ type: 'ready' });
