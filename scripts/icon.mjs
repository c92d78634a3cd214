// The extension's marketplace icon (media/icon.png, 256×256): media/review-corpus.svg's strokes, white on a
// rounded square. Written by hand with zlib because no SVG rasterizer is a dependency or on this machine,
// and a drawing of strokes needs only the distance from each pixel to them: deterministic, offline.
//   node scripts/icon.mjs          writes media/icon.png
// test/unit/icon.test.ts checks that the committed PNG holds exactly these pixels.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SVG_FILE = path.join(ROOT, 'media', 'review-corpus.svg');
export const ICON_FILE = path.join(ROOT, 'media', 'icon.png');
export const ICON_SIZE = 256;
const BACKGROUND = [0x1f, 0x4e, 0x79];
const INK = [0xff, 0xff, 0xff];
const PADDING = 36;
const CORNER_RADIUS = 40;
const CURVE_STEPS = 48;

const attrs = (tag) => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));

function ellipsePoints(cx, cy, rx, ry) {
  const points = [];
  for (let i = 0; i <= CURVE_STEPS * 2; i++) {
    const a = (i / (CURVE_STEPS * 2)) * 2 * Math.PI;
    points.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return points;
}

/** The polylines of a path's `d` (M L H V C Z, absolute and relative: what the icon uses). */
function pathPolylines(d) {
  const tokens = d.match(/[MLHVCZmlhvcz]|-?(?:\d+\.?\d*|\.\d+)/g) ?? [];
  const lines = [];
  let line = null;
  let x = 0;
  let y = 0;
  let command = '';
  let i = 0;
  const num = () => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/[a-z]/i.test(tokens[i])) command = tokens[i++];
    const relative = command === command.toLowerCase();
    const ox = relative ? x : 0;
    const oy = relative ? y : 0;
    switch (command.toUpperCase()) {
      case 'M':
        x = ox + num();
        y = oy + num();
        line = [[x, y]];
        lines.push(line);
        command = relative ? 'l' : 'L';
        break;
      case 'L':
        x = ox + num();
        y = oy + num();
        line.push([x, y]);
        break;
      case 'H':
        x = ox + num();
        line.push([x, y]);
        break;
      case 'V':
        y = oy + num();
        line.push([x, y]);
        break;
      case 'C': {
        const [x1, y1, x2, y2, x3, y3] = [ox + num(), oy + num(), ox + num(), oy + num(), ox + num(), oy + num()];
        const [x0, y0] = [x, y];
        for (let s = 1; s <= CURVE_STEPS; s++) {
          const t = s / CURVE_STEPS;
          const u = 1 - t;
          line.push([
            u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3,
            u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3,
          ]);
        }
        [x, y] = [x3, y3];
        break;
      }
      case 'Z':
        line.push(line[0]);
        [x, y] = line[0];
        break;
      default:
        throw new Error(`${SVG_FILE}: path command ${command} is not drawn by scripts/icon.mjs`);
    }
  }
  return lines;
}

/** The SVG's strokes as line segments in its viewBox units, and its stroke width. */
export function readStrokes(svg) {
  const root = attrs(svg.match(/<svg[^>]*>/)[0]);
  const [, , width, height] = root.viewBox.split(/\s+/).map(Number);
  const polylines = [];
  for (const [tag, name] of svg.matchAll(/<(ellipse|circle|path)\b[^>]*>/g)) {
    const a = attrs(tag);
    if (name === 'ellipse') polylines.push(ellipsePoints(+a.cx, +a.cy, +a.rx, +a.ry));
    else if (name === 'circle') polylines.push(ellipsePoints(+a.cx, +a.cy, +a.r, +a.r));
    else polylines.push(...pathPolylines(a.d));
  }
  const segments = polylines.flatMap((p) => p.slice(1).map((q, k) => [p[k], q]));
  return { width, height, strokeWidth: Number(root['stroke-width']), segments };
}

function distanceToSegment(px, py, [[ax, ay], [bx, by]]) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

/** Coverage of the rounded square at a pixel centre (1 inside, 0 outside, a ramp one pixel wide). */
function squareCoverage(px, py) {
  const inner = Math.max(Math.abs(px - ICON_SIZE / 2) - (ICON_SIZE / 2 - CORNER_RADIUS), 0);
  const outer = Math.max(Math.abs(py - ICON_SIZE / 2) - (ICON_SIZE / 2 - CORNER_RADIUS), 0);
  return Math.max(0, Math.min(1, CORNER_RADIUS - Math.hypot(inner, outer) + 0.5));
}

/** RGBA rows of the icon. */
export function renderPixels(svg = readFileSync(SVG_FILE, 'utf8')) {
  const { width, height, strokeWidth, segments } = readStrokes(svg);
  const scale = (ICON_SIZE - 2 * PADDING) / Math.max(width, height);
  const half = (strokeWidth * scale) / 2;
  const scaled = segments.map((s) => s.map(([x, y]) => [PADDING + x * scale, PADDING + y * scale]));
  const reach = half + 1; // beyond it a segment puts no ink on the pixel
  const pixels = Buffer.alloc(ICON_SIZE * ICON_SIZE * 4);
  for (let row = 0; row < ICON_SIZE; row++) {
    const py = row + 0.5;
    const near = scaled.filter(([[, ay], [, by]]) => Math.min(ay, by) - reach <= py && py <= Math.max(ay, by) + reach);
    for (let col = 0; col < ICON_SIZE; col++) {
      const px = col + 0.5;
      let d = Infinity;
      for (const s of near)
        if (Math.min(s[0][0], s[1][0]) - reach <= px && px <= Math.max(s[0][0], s[1][0]) + reach)
          d = Math.min(d, distanceToSegment(px, py, s));
      const ink = Math.max(0, Math.min(1, half - d + 0.5));
      const o = (row * ICON_SIZE + col) * 4;
      for (let c = 0; c < 3; c++) pixels[o + c] = Math.round(BACKGROUND[c] + (INK[c] - BACKGROUND[c]) * ink);
      pixels[o + 3] = Math.round(255 * squareCoverage(px, py));
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An 8-bit RGBA PNG, every row unfiltered. */
export function encodePng(pixels, size = ICON_SIZE) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let row = 0; row < size; row++) pixels.copy(raw, row * (size * 4 + 1) + 1, row * size * 4, (row + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Width, height and RGBA pixels of a PNG written by encodePng (8-bit RGBA, unfiltered rows). */
export function decodePng(png) {
  let offset = 8;
  let header = null;
  const idat = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR')
      header = {
        width: data.readUInt32BE(0),
        height: data.readUInt32BE(4),
        depth: data[8],
        colorType: data[9],
        interlace: data[12],
      };
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  if (!header || header.depth !== 8 || header.colorType !== 6 || header.interlace !== 0)
    throw new Error('not an 8-bit RGBA, non-interlaced PNG');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = header.width * 4 + 1;
  const pixels = Buffer.alloc(header.width * header.height * 4);
  for (let row = 0; row < header.height; row++) {
    if (raw[row * stride] !== 0)
      throw new Error(`row ${row} is filtered (${raw[row * stride]}); encodePng writes none`);
    raw.copy(pixels, row * header.width * 4, row * stride + 1, (row + 1) * stride);
  }
  return { ...header, pixels };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(ICON_FILE, encodePng(renderPixels()));
  console.log(`wrote ${path.relative(ROOT, ICON_FILE)} (${ICON_SIZE}×${ICON_SIZE})`);
}
