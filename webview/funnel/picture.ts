// The funnel picture: SVG elements made from the layout the extension sends (src/core/publish/export/funnelPicture.ts),
// with createElementNS, setAttribute and textContent only, so no text from a host is parsed as markup.
import type { RevealTarget, SvgNode } from '../../src/core/publish/export/funnelPicture';

const SVG_NS = 'http://www.w3.org/2000/svg';
const TAGS = new Set(['svg', 'g', 'rect', 'text', 'line', 'polygon', 'title']);
const ATTRS = new Set([
  'x',
  'y',
  'width',
  'height',
  'viewBox',
  'class',
  'role',
  'aria-label',
  'points',
  'x1',
  'x2',
  'y1',
  'y2',
]);

export function drawPicture(node: SvgNode, onReveal: (r: RevealTarget) => void): SVGSVGElement {
  return draw(node, onReveal) as SVGSVGElement;
}

function draw(node: SvgNode, onReveal: (r: RevealTarget) => void): SVGElement {
  if (!TAGS.has(node.tag)) throw new Error(`funnel picture: unexpected element ${node.tag}`);
  const e = document.createElementNS(SVG_NS, node.tag);
  for (const [k, v] of Object.entries(node.attrs ?? {}))
    if (ATTRS.has(k) || k.startsWith('data-')) e.setAttribute(k, String(v));
  if (node.text !== undefined) e.textContent = node.text;
  for (const c of node.children ?? []) e.appendChild(draw(c, onReveal));
  const target = node.reveal;
  if (target) {
    e.classList.add('clickable');
    e.setAttribute('tabindex', '0');
    e.setAttribute('role', 'button');
    const label = node.children?.find((c) => c.tag === 'title')?.text;
    if (label) e.setAttribute('aria-label', `${label}. Reveal in the tree`);
    e.addEventListener('click', () => onReveal(target));
    e.addEventListener('keydown', (ev: Event) => {
      if (!(ev instanceof KeyboardEvent)) return;
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        onReveal(target);
      }
    });
  }
  return e;
}

/**
 * Presentation properties copied from the page's computed style, so the saved file needs no VS Code
 * theme. All are inherited in SVG, so an element states only those that differ from its parent's.
 */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
];

/**
 * The picture as a standalone SVG file: every element carries its concrete colours and fonts inline
 * (the theme's CSS variables resolved now), and nothing interactive is kept.
 */
export function standaloneSvg(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const to = [copy, ...Array.from(copy.querySelectorAll('*'))];
  from.forEach((source, i) => {
    const target = to[i];
    for (const a of ['class', 'tabindex', 'role', 'aria-label'])
      if (target !== copy || a !== 'aria-label') target.removeAttribute(a);
    if (source.tagName === 'title') return;
    const own = getComputedStyle(source);
    const parent = source === svg || !source.parentElement ? undefined : getComputedStyle(source.parentElement);
    const style = STYLE_PROPS.filter((p) => own.getPropertyValue(p) !== parent?.getPropertyValue(p))
      .map((p) => `${p}: ${own.getPropertyValue(p)}`)
      .join('; ');
    if (style) target.setAttribute('style', style);
  });
  copy.setAttribute('role', 'img');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}
