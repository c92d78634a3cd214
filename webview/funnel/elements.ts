// Small DOM builders. Text always goes in through textContent, never innerHTML.
import { Tags } from './toolkit';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function grid(
  headers: string[],
  rows: { cells: string[]; onClick?: () => void; title?: string }[],
  label: string,
): HTMLElement {
  const g = document.createElement(Tags.grid);
  g.setAttribute('aria-label', label);
  g.setAttribute('grid-template-columns', headers.map((_, i) => (i === 0 ? '2fr' : '1fr')).join(' '));
  const head = document.createElement(Tags.row);
  head.setAttribute('row-type', 'header');
  headers.forEach((h, i) => head.appendChild(cell(h, i, 'columnheader')));
  g.appendChild(head);
  for (const r of rows) {
    const row = document.createElement(Tags.row);
    r.cells.forEach((c, i) => row.appendChild(cell(c, i)));
    if (r.onClick) {
      row.classList.add('clickable');
      row.addEventListener('click', r.onClick);
      if (r.title) row.title = r.title;
    }
    g.appendChild(row);
  }
  return g;
}

function cell(text: string, index: number, type?: string): HTMLElement {
  const c = document.createElement(Tags.cell);
  c.setAttribute('grid-column', String(index + 1));
  if (type) c.setAttribute('cell-type', type);
  c.textContent = text;
  return c;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A horizontal bar chart of removals per rule, drawn as SVG; a null value is written `noValue` ("not counted", or "off"), with no bar (never 0). */
export function barChart(
  bars: { label: string; value: number | null; noValue?: string }[],
  title: string,
): SVGSVGElement {
  const rowHeight = 18;
  const labelWidth = 170;
  const width = 560;
  const max = Math.max(1, ...bars.map((b) => b.value ?? 0));
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${bars.length * rowHeight + 4}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'chart');
  const t = document.createElementNS(SVG, 'title');
  t.textContent = title;
  svg.appendChild(t);
  bars.forEach((b, i) => {
    const y = i * rowHeight + 2;
    const label = document.createElementNS(SVG, 'text');
    label.setAttribute('x', String(labelWidth - 6));
    label.setAttribute('y', String(y + 12));
    label.setAttribute('text-anchor', 'end');
    label.textContent = b.label;
    const rect = document.createElementNS(SVG, 'rect');
    const w = b.value === null ? 0 : Math.round(((width - labelWidth - 60) * b.value) / max);
    rect.setAttribute('x', String(labelWidth));
    rect.setAttribute('y', String(y + 2));
    rect.setAttribute('width', String(Math.max(w, (b.value ?? 0) > 0 ? 1 : 0)));
    rect.setAttribute('height', String(rowHeight - 6));
    rect.setAttribute('class', 'bar');
    const value = document.createElementNS(SVG, 'text');
    value.setAttribute('x', String(labelWidth + w + 4));
    value.setAttribute('y', String(y + 12));
    value.textContent = b.value === null ? (b.noValue ?? 'not counted') : b.value.toLocaleString('en-US');
    svg.append(label, rect, value);
  });
  return svg;
}
