// The funnel as a picture: for each organization a column that flows down through every rule, one row
// per rule, whose bar is the units left after it (solid) and the units it removed (pale). The numbers
// are exactly counts.csv's rows (countRows), which the funnel report's table shows too.
//
// Units change on the way (changes, then the comments of the kept changes, then the hunks around
// anchored comments, then those hunks as examples), so each unit kind gets its own header row and
// changes, comments and hunks each their own scale. The flow is drawn on across a header only where
// the count carries over (the hunks left are the examples, on the hunks' scale); elsewhere a dashed
// break says the unit changes. A rule not counted on a host has
// no removed bar and is marked "not counted" (a rule switched off: "off"), never drawn as 0.
//
// The layout is data (SvgNode), built here so it can be tested under Node; the webview turns it into
// SVG elements with createElementNS and textContent, so no text from a host is parsed as markup.
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import type { UnitKind } from '../../rules/types';
import type { CountRow } from './counts';

/** The one way counts are written in the report's table and in the picture. */
export const formatCount = (v: number | null | undefined): string =>
  v === null || v === undefined ? 'not counted' : v.toLocaleString('en-US');

export type SvgTag = 'svg' | 'g' | 'rect' | 'text' | 'line' | 'polygon' | 'title';

/** Where clicking a row goes in the tree; window undefined: the first window holding that rule. */
export interface RevealTarget {
  org: string;
  rule: string;
  window?: string | null;
}

export interface SvgNode {
  tag: SvgTag;
  attrs?: Record<string, string | number>;
  /** Set as textContent. */
  text?: string;
  children?: SvgNode[];
  reveal?: RevealTarget;
}

export interface PictureWindow {
  window: string;
  examples: number | null;
  sealed: boolean;
}

export interface OrgPicture {
  org: string;
  /** This organization's counts.csv rows, in funnel order. */
  rows: CountRow[];
  windows: PictureWindow[];
  /** Kept examples in no window (counter outside_windows). */
  outsideWindows: number | null;
}

export function funnelPictureData(funnel: DatasetFunnel, rows: readonly CountRow[]): OrgPicture[] {
  return Object.entries(funnel.organizations).map(([org, o]) => ({
    org,
    rows: rows.filter((r) => r.org === org),
    windows: Object.entries(o.windows).map(([window, w]) => ({
      window,
      examples: w.examples,
      sealed: w.sealed === true,
    })),
    outsideWindows: o.counters.outside_windows ?? null,
  }));
}

/** A row's hover text: "stage · rule: remaining (removed)", each number as the table writes it. */
export function stageTitle(
  org: string,
  r: Pick<CountRow, 'stage' | 'rule' | 'unit' | 'input' | 'removed' | 'off' | 'remaining'>,
): string {
  const removed =
    r.removed === null ? `removed: ${r.off ? 'off' : 'not counted'}` : `${formatCount(r.removed)} removed`;
  return `${org}: ${r.stage} · ${r.rule}: ${formatCount(r.remaining)} ${r.unit} remaining (${removed}) of ${formatCount(r.input)}`;
}

export function windowTitle(org: string, w: PictureWindow): string {
  return w.sealed
    ? `${org}: windows · ${w.window}: sealed (not built)`
    : `${org}: windows · ${w.window}: ${formatCount(w.examples)} examples kept`;
}

const OUTSIDE = 'outside windows';

/** Where each unit kind's counts come from, said once in its header row. */
const UNIT_CAPTION: Record<UnitKind, string> = {
  changes: 'listed',
  comments: 'of the kept changes',
  hunks: 'around anchored comments',
  examples: 'each hunk left',
};

const PAD = 8;
const LABEL_W = 270;
/** The rule column, after the stage's. */
const RULE_X = PAD + 104;
const COL_W = 220;
const BAR_MAX = 140;
const ROW_H = 16;
const BAR_H = 10;
const HEAD_H = 20;
const TOP = 44;

type Line =
  | { kind: 'unit'; unit: UnitKind; carries: boolean; first: boolean }
  | { kind: 'rule'; stage: string; rule: string; unit: UnitKind; firstOfStage: boolean }
  | { kind: 'windows' }
  | { kind: 'window'; window: string };

/** The rows of the picture, top to bottom, from the first organization's funnel (every org has the same rules). */
function lines(orgs: readonly OrgPicture[]): Line[] {
  const out: Line[] = [];
  const rules = orgs[0]?.rows ?? [];
  let unit: UnitKind | undefined;
  let stage: string | undefined;
  for (const r of rules) {
    if (r.unit !== unit) {
      // hunks → examples: a hunk no hunk rule removed is an example, so the flow carries on.
      out.push({
        kind: 'unit',
        unit: r.unit,
        carries: unit === 'hunks' && r.unit === 'examples',
        first: unit === undefined,
      });
      unit = r.unit;
    }
    out.push({ kind: 'rule', stage: r.stage, rule: r.rule, unit: r.unit, firstOfStage: r.stage !== stage });
    stage = r.stage;
  }
  out.push({ kind: 'windows' });
  const names = [...new Set(orgs.flatMap((o) => o.windows.map((w) => w.window)))];
  for (const w of [...names, OUTSIDE]) out.push({ kind: 'window', window: w });
  return out;
}

const lineHeight = (l: Line) => (l.kind === 'unit' || l.kind === 'windows' ? HEAD_H : ROW_H);
const round = (n: number) => Math.round(n * 10) / 10;
const text = (x: number, y: number, s: string, cls: string, extra: Record<string, string | number> = {}): SvgNode => ({
  tag: 'text',
  attrs: { x, y, class: cls, ...extra },
  text: s,
});
const rect = (x: number, y: number, w: number, h: number, cls: string): SvgNode => ({
  tag: 'rect',
  attrs: { x: round(x), y, width: round(w), height: h, class: cls },
});
const title = (s: string): SvgNode => ({ tag: 'title', text: s });
/** Names from a host or a config can be long: cut for the drawing, whole in the hover. */
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The whole picture: a label column, then one column per organization. */
export function layoutFunnelPicture(corpus: string, orgs: readonly OrgPicture[]): SvgNode {
  const ls = lines(orgs);
  const height = TOP + ls.reduce((n, l) => n + lineHeight(l), 0) + PAD;
  const width = LABEL_W + orgs.length * COL_W + PAD;
  const children: SvgNode[] = [
    { tag: 'title', text: `Funnel: ${corpus}` },
    rect(0, 0, width, height, 'fp-background'),
    text(PAD, 16, cut(`Funnel: ${corpus}`, 80), 'fp-heading'),
    text(PAD, 36, 'stage', 'fp-muted'),
    text(RULE_X, 36, 'rule', 'fp-muted'),
  ];
  orgs.forEach((o, i) =>
    children.push({ tag: 'g', children: [title(o.org), text(LABEL_W + i * COL_W, 36, cut(o.org, 32), 'fp-org')] }),
  );

  let y = TOP;
  for (const l of ls) {
    const h = lineHeight(l);
    if (l.kind === 'unit' || l.kind === 'windows') {
      if (!(l.kind === 'unit' && (l.first || l.carries))) {
        children.push({
          tag: 'line',
          attrs: { x1: PAD, x2: width - PAD, y1: y + 1, y2: y + 1, class: 'fp-unit-break' },
          children: [
            title(
              l.kind === 'unit'
                ? `The unit changes here: counts above and below are of different things (${l.unit} from here)`
                : 'The kept examples, by window',
            ),
          ],
        });
      }
      const caption = l.kind === 'unit' ? `${l.unit} · ${UNIT_CAPTION[l.unit]}` : 'windows · the examples kept';
      children.push(text(PAD, y + 14, caption, 'fp-unit'));
    } else if (l.kind === 'rule') {
      if (l.firstOfStage) children.push(text(PAD, y + 11, l.stage, 'fp-stage'));
      children.push(text(RULE_X, y + 11, l.rule, 'fp-rule'));
    } else {
      children.push(text(RULE_X, y + 11, l.window, 'fp-rule'));
    }
    y += h;
  }
  orgs.forEach((o, i) => children.push(orgColumn(o, LABEL_W + i * COL_W, ls)));
  return {
    tag: 'svg',
    attrs: {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      class: 'funnel-picture',
      role: 'img',
      'aria-label': `Funnel picture: ${corpus}`,
    },
    children,
  };
}

function orgColumn(o: OrgPicture, x0: number, ls: readonly Line[]): SvgNode {
  const byRule = new Map(o.rows.map((r) => [`${r.stage}\0${r.rule}`, r]));
  // Hunks and examples share a scale: the hunks left are the examples, so the same count is the same width.
  const scaleOf = (unit: UnitKind) => (unit === 'examples' ? 'hunks' : unit);
  const scale = new Map<UnitKind, number>();
  for (const r of o.rows) scale.set(scaleOf(r.unit), Math.max(scale.get(scaleOf(r.unit)) ?? 0, r.input));
  const w = (v: number, unit: UnitKind) =>
    v <= 0 ? 0 : Math.max(1, (v / Math.max(1, scale.get(scaleOf(unit)) ?? 1)) * BAR_MAX);
  const kept = o.rows.filter((r) => r.unit === 'examples').at(-1)?.remaining ?? 0;
  const children: SvgNode[] = [];
  /** The solid width and bottom edge of the last bar drawn, for the flow to the next one. */
  let last: { width: number; bottom: number } | undefined;
  let windowX = 0;
  let y = TOP;
  for (const l of ls) {
    const top = y + (ROW_H - BAR_H) / 2;
    if (l.kind === 'unit') {
      const first = o.rows.find((r) => r.unit === l.unit);
      children.push(text(x0, y + 14, `${formatCount(first?.input)} ${l.unit}`, 'fp-muted'));
      if (!l.carries) last = undefined;
    } else if (l.kind === 'windows') {
      children.push(text(x0, y + 14, `${formatCount(kept)} examples kept`, 'fp-muted'));
    } else if (l.kind === 'rule') {
      const r = byRule.get(`${l.stage}\0${l.rule}`);
      if (!r) {
        children.push(text(x0, top + 9, 'not in this build', 'fp-muted'));
        last = undefined;
      } else {
        const solid = w(r.remaining, r.unit);
        const total = r.removed === null ? solid : w(r.input, r.unit);
        if (last) children.push(flow(x0, last, total, top));
        children.push(ruleBar(o.org, r, x0, { y, top, solid, total }));
        last = { width: solid, bottom: top + BAR_H };
      }
    } else {
      // The windows share the examples kept: each starts where the one before ended, so together they span the last bar.
      const win =
        l.window === OUTSIDE
          ? { window: OUTSIDE, examples: o.outsideWindows, sealed: false }
          : o.windows.find((x) => x.window === l.window);
      if (win) {
        const drawn = windowBar(o.org, win, x0, { y, top, windowX }, (n) => w(n, 'examples'));
        children.push(drawn.node);
        windowX += drawn.width;
      }
    }
    y += lineHeight(l);
  }
  return { tag: 'g', attrs: { class: 'fp-org-column', 'data-org': o.org }, children };
}

/** Where a bar is drawn: its row's top, the bar's own top, and its solid and whole widths. */
interface BarPlace {
  y: number;
  top: number;
  solid: number;
  total: number;
}

/** A rule's bar: what remains (solid), what it removed, or a "not counted" box, then the count left. */
function ruleBar(org: string, r: CountRow, x0: number, { y, top, solid, total }: BarPlace): SvgNode {
  const bar: SvgNode[] = [
    title(stageTitle(org, r)),
    rect(x0, y, COL_W - 4, ROW_H, 'fp-hit'),
    rect(x0, top, solid, BAR_H, 'fp-remaining'),
  ];
  let after = x0 + total + 4;
  if (r.removed === null) {
    bar.push(
      rect(x0 + solid + 2, top, 62, BAR_H, 'fp-not-counted'),
      text(x0 + solid + 5, top + 8.5, r.off ? 'off' : 'not counted', 'fp-small'),
    );
    after = x0 + solid + 68;
  } else if (r.removed > 0) {
    bar.push(rect(x0 + solid, top, total - solid, BAR_H, 'fp-removed'));
  }
  bar.push(text(after, top + 9, formatCount(r.remaining), 'fp-value'));
  return {
    tag: 'g',
    attrs: { class: 'fp-stage-row', 'data-org': org, 'data-stage': r.stage, 'data-rule': r.rule },
    reveal: { org, rule: r.rule },
    children: bar,
  };
}

/** A window's bar, starting where the window before it ended; returns it and its width. */
function windowBar(
  org: string,
  win: PictureWindow,
  x0: number,
  { y, top, windowX }: { y: number; top: number; windowX: number },
  widthOf: (examples: number) => number,
): { node: SvgNode; width: number } {
  let width = 0;
  const parts: SvgNode[] = [title(windowTitle(org, win)), rect(x0, y, COL_W - 4, ROW_H, 'fp-hit')];
  if (win.sealed) {
    parts.push(
      rect(x0 + windowX, top, 44, BAR_H, 'fp-sealed'),
      text(x0 + windowX + 4, top + 8.5, 'sealed', 'fp-small'),
    );
  } else {
    width = widthOf(win.examples ?? 0);
    parts.push(
      rect(x0 + windowX, top, width, BAR_H, 'fp-window'),
      text(x0 + windowX + width + 4, top + 9, formatCount(win.examples), 'fp-value'),
    );
  }
  const node: SvgNode = {
    tag: 'g',
    attrs: { class: 'fp-stage-row', 'data-org': org, 'data-stage': 'windows', 'data-window': win.window },
    reveal: win.sealed ? undefined : { org, rule: 'kept', window: win.window === OUTSIDE ? null : win.window },
    children: parts,
  };
  return { node, width };
}

/** The units passing from one bar to the next: a band from the left bar's solid part to the next bar's whole width. */
function flow(x0: number, from: { width: number; bottom: number }, toWidth: number, toTop: number): SvgNode {
  const pts = [
    [x0, from.bottom],
    [x0 + from.width, from.bottom],
    [x0 + toWidth, toTop],
    [x0, toTop],
  ]
    .map(([a, b]) => `${round(a)},${round(b)}`)
    .join(' ');
  return { tag: 'polygon', attrs: { points: pts, class: 'fp-flow' } };
}
