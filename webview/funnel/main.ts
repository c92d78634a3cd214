// The funnel report page: the funnel as a picture (click a row to reveal it in the tree, save it as
// SVG), then per organization the funnel table (the same numbers), a chart of removals per rule,
// window sizes, target_in_comment counts, label shares and the comments' diversity.
import { registerToolkit } from './toolkit';
import { labelAuditSection } from './labelAudit';
import { barChart, el, grid } from './elements';
import { drawPicture, standaloneSvg } from './picture';
import { diversitySection } from './diversity';
import type { DiversityReport } from '../../src/core/review/diversity/report';
import { qualitySection } from './quality';
import { auditAgreementPart, qualityAgreementPart } from './agreement';
import type { RaterAgreementFigures } from '../../src/core/review/quality/agreementFigures';
import { sharesSection } from './shares';
import type { FunnelReportData } from '../../src/extension/funnel/funnelData';
import { formatCount as show, type RevealTarget } from '../../src/core/publish/export/funnelPicture';
import { PROBE_NOT_RUN } from '../../src/core/build/reports/funnelNotes';
import type { OrgReport } from '../../src/core/build/reports/funnelReport';
import { notCountedCell, notCountedNote } from '../../src/core/rules/switchedOff';
import { crossWindowLine } from '../../src/core/build/reports/crossWindowReport';

interface PageState {
  data?: FunnelReportData;
  diversity?: { build: number; data: DiversityReport };
  agreement?: { build: number; data: RaterAgreementFigures };
}
declare function acquireVsCodeApi(): {
  postMessage(m: unknown): void;
  getState(): PageState | undefined;
  setState(s: PageState): void;
};
const vscode = acquireVsCodeApi();
registerToolkit();

const reveal = (data: FunnelReportData, r: RevealTarget) =>
  vscode.postMessage({
    type: 'reveal',
    org: r.org,
    window: r.window === undefined ? firstWindowWith(data, r.org, r.rule) : r.window,
    rule: r.rule,
  });

let picture: SVGSVGElement | undefined;

function render(data: FunnelReportData): void {
  const app = document.getElementById('app')!;
  app.replaceChildren();
  const f = data.funnel;
  app.append(
    el('h1', `Funnel: ${data.corpus}`),
    el(
      'p',
      `Build ${f.build}${f.corpus === data.corpus ? '' : ` (built as ${f.corpus})`} · rules ${f.rulesVersion.slice(0, 12)} · ${f.createdAt}`,
      'meta',
    ),
    ...(f.warnings ?? []).map((w) => el('p', `Warning: ${w}`, 'warning')),
    el('p', crossWindowLine(f.decontamination?.crossWindow, f.decontamination?.automatic), 'cross-window'),
  );
  const save = el('button', 'Save as SVG…', 'save');
  save.type = 'button';
  save.addEventListener('click', () => picture && vscode.postMessage({ type: 'saveSvg', svg: standaloneSvg(picture) }));
  picture = drawPicture(data.picture, (r) => reveal(data, r));
  const frame = el('div', undefined, 'picture-frame');
  frame.append(picture);
  app.append(
    el('h2', 'The funnel, as a picture'),
    el(
      'p',
      'For each organization, the units left after each rule (solid) and the units it removed (pale), ' +
        'each unit kind on its own scale: where the unit changes (changes, comments, hunks) the counts are of different things. ' +
        'Hover a row for its numbers; click it to reveal it in the tree.',
      'meta',
    ),
    save,
    frame,
  );
  for (const [org, o] of Object.entries(f.organizations)) app.append(orgSection(data, org, o));
  app.append(el('h2', 'Open flags'));
  if (data.openFlags.length === 0) app.append(el('p', 'No open flags.'));
  else
    app.append(
      grid(
        ['example', 'reason', 'what matched'],
        data.openFlags.map((f) => ({ cells: [f.exampleKey, f.reason, f.detail] })),
        'open flags',
      ),
    );
  const state = vscode.getState();
  const many = state?.agreement?.build === f.build ? state.agreement.data : undefined;
  app.append(labelAuditSection(data, many?.audit ? new Map(many.audit) : undefined));
  const d = state?.diversity;
  app.append(
    qualitySection(data.quality, data.scores, data.agreement, many?.quality),
    diversitySection(d?.build === f.build ? d.data : undefined),
  );
}

/** One organization: its notes, funnel table, removals, windows and halves, shares, counters and per-window rules. */
function orgSection(data: FunnelReportData, org: string, o: OrgReport): HTMLElement {
  const section = el('section');
  section.dataset.org = org;
  section.append(el('h2', org));
  section.append(el('p', `Comment-count probe: ${o.probe?.text ?? PROBE_NOT_RUN}`, 'probe'));
  if (o.overlap) section.append(el('p', o.overlap, 'overlap'));
  const gaps = gapNotes(o);
  if (gaps.length) {
    const list = el('ul', undefined, 'not-counted');
    list.append(...gaps.map((g) => el('li', g)));
    section.append(list);
  }
  section.append(funnelTable(data, org, o));
  section.append(
    el('h3', 'Removals per rule'),
    barChart(
      o.funnel.map((r) => ({ label: r.rule, value: r.removed, noValue: notCountedCell(r.notCounted) })),
      `${org}: removals per rule`,
    ),
  );
  section.append(
    el('h3', 'Windows'),
    grid(
      ['window', 'examples', 'target_in_comment'],
      Object.entries(o.windows).map(([w, v]) => ({
        cells: [w, v.sealed ? 'sealed' : show(v.examples), show(v.counters.target_in_comment)],
      })),
      `${org} windows`,
    ),
  );
  if (o.halves) section.append(...halvesPart(org, o.halves));
  section.append(...sharesSection(org, o));
  section.append(
    el('h3', 'Counters'),
    grid(
      ['counter', 'value'],
      Object.entries(o.counters).map(([k, v]) => ({ cells: [k, show(v)] })),
      `${org} counters`,
    ),
  );
  section.append(...perWindowPart(data, org));
  return section;
}

/** The funnel table: each rule's removals and what remains, a row revealing the rule in the tree. */
function funnelTable(data: FunnelReportData, org: string, o: OrgReport): HTMLElement {
  const partly = new Set(o.funnel.filter((r) => r.removed !== null && r.partly).map((r) => `${r.stage}/${r.rule}`));
  return grid(
    ['stage', 'rule', 'unit', 'removed', 'remaining'],
    data.counts
      .filter((r) => r.org === org)
      .map((r) => ({
        cells: [
          r.stage,
          r.rule,
          r.unit,
          r.off ? 'off' : partly.has(`${r.stage}/${r.rule}`) ? `${show(r.removed)} (partly counted)` : show(r.removed),
          show(r.remaining),
        ],
        title: `Reveal ${r.rule} in the tree`,
        onClick: () => reveal(data, { org, rule: r.rule }),
      })),
    `${org} funnel`,
  );
}

/** The registered halves of a window: each half's size, suffix mix and target_in_comment. */
function halvesPart(org: string, h: NonNullable<OrgReport['halves']>): HTMLElement[] {
  const mix = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
  return [
    el('h3', `Halves of ${h.window} (by ${h.by}) · suffix TVD ${h.suffixTvd}`),
    grid(
      ['half', 'examples', 'suffix mix', 'target_in_comment'],
      (['a', 'b'] as const).map((k) => ({
        cells: [k, show(h[k].examples), mix(h[k].suffixes), show(h[k].target_in_comment)],
      })),
      `${org} halves`,
    ),
  ];
}

/** Per window, the examples kept and each rule's count, a row revealing them in the tree. */
function perWindowPart(data: FunnelReportData, org: string): HTMLElement[] {
  return [
    el('h3', 'Per window and rule'),
    grid(
      ['window', 'rule', 'unit', 'count'],
      data.windows
        .filter((w) => w.org === org)
        .flatMap((w) => [
          {
            cells: [w.window ?? '(no window)', 'kept', 'examples', show(w.kept)],
            onClick: () => reveal(data, { org, window: w.window, rule: 'kept' }),
          },
          ...w.rules.map((r) => ({
            cells: [
              w.window ?? '(no window)',
              r.rule,
              r.unit,
              r.notCounted ? notCountedCell(r.notCounted) : show(r.count),
            ],
            onClick: () => reveal(data, { org, window: w.window, rule: r.rule }),
          })),
        ]),
      `${org} per window`,
    ),
  ];
}

/** Why a row or counter is not counted, or counted only in part, one line each. */
function gapNotes(o: OrgReport): string[] {
  const out: string[] = [];
  for (const r of o.funnel) {
    if (r.notCounted) out.push(notCountedNote(r.rule, r.notCounted));
    else if (r.partly) out.push(`partly counted: ${r.rule}: ${r.partly}`);
  }
  for (const [k, why] of Object.entries(o.notCounted ?? {})) out.push(`not counted: ${k}: ${why}`);
  return out;
}

function firstWindowWith(data: FunnelReportData, org: string, rule: string): string | null {
  return data.windows.find((w) => w.org === org && w.rules.some((r) => r.rule === rule))?.window ?? null;
}

function renderEmpty(message: string): void {
  picture = undefined;
  document.getElementById('app')!.replaceChildren(el('p', message));
}

window.addEventListener(
  'message',
  (
    e: MessageEvent<{
      type: string;
      data?: FunnelReportData;
      message?: string;
      requestId?: number;
      build?: number;
      error?: string;
    }>,
  ) => {
    const m = e.data;
    if (m?.type === 'data' && m.data) {
      const kept = vscode.getState();
      const build = m.data.funnel.build;
      vscode.setState({
        data: m.data,
        ...(kept?.diversity?.build === build ? { diversity: kept.diversity } : {}),
        ...(kept?.agreement?.build === build ? { agreement: kept.agreement } : {}),
      });
      render(m.data);
      vscode.postMessage({ type: 'rendered', build: m.data.funnel.build });
    } else if (m?.type === 'empty') {
      vscode.setState({});
      renderEmpty(String(m.message ?? ''));
      vscode.postMessage({ type: 'rendered', build: null });
    } else if (m?.type === 'diversity') {
      // Computed in a worker process after the rest; shown only over the build it is of.
      const state = vscode.getState();
      if (!state?.data || state.data.funnel.build !== m.build) return;
      const report = m.data as unknown as DiversityReport | undefined;
      if (report) vscode.setState({ ...state, diversity: { build: m.build, data: report } });
      document.querySelector('section[data-section="diversity"]')?.replaceWith(diversitySection(report, m.error));
    } else if (m?.type === 'agreement') {
      // The same: the agreement among all raters, from a worker process, over the build it is of.
      const state = vscode.getState();
      if (!state?.data || state.data.funnel.build !== m.build) return;
      const figures = m.data as unknown as RaterAgreementFigures | undefined;
      if (figures) vscode.setState({ ...state, agreement: { build: m.build, data: figures } });
      const audit = new Map(figures?.audit ?? []);
      document.querySelectorAll<HTMLElement>('[data-agreement-org]').forEach((part) => {
        const org = part.dataset.agreementOrg!;
        part.replaceWith(auditAgreementPart(org, audit.get(org), m.error));
      });
      document.querySelector('[data-quality-agreement]')?.replaceWith(qualityAgreementPart(figures?.quality, m.error));
    } else if (m?.type === 'serialize') {
      vscode.postMessage({ type: 'saveSvg', requestId: m.requestId, svg: picture ? standaloneSvg(picture) : null });
    }
  },
);
// Shown again after being hidden: draw what was last shown at once, then ask for the current numbers.
const last = vscode.getState()?.data;
if (last) render(last);
vscode.postMessage({ type: 'ready' });
