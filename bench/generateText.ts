// The text side of the build benchmark's corpus generator: a seeded PRNG, code-like lines, reviewer
// prose, and an independent reference for the shingle Jaccard the near-duplicate rule uses.
// Everything is fabricated; identifiers come from a syllable vocabulary large enough that two
// independently generated hunks never share more than the odd 5-token shingle.

/** splitmix32: small, fast, and the same sequence on every machine for the same seed. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** One of the values, with probability proportional to its weight. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    const total = choices.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [value, w] of choices) if ((r -= w) < 0) return value;
    return choices[choices.length - 1][0];
  }

  hex(digits: number): string {
    let s = '';
    while (s.length < digits)
      s += Math.floor(this.next() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    return s.slice(0, digits);
  }
}

const SYLLABLES = [
  'get',
  'set',
  'user',
  'id',
  'map',
  'list',
  'count',
  'node',
  'val',
  'buf',
  'ctx',
  'req',
  'res',
  'item',
  'key',
  'path',
  'size',
  'err',
  'data',
  'init',
  'read',
  'write',
  'parse',
  'index',
  'name',
  'type',
  'opt',
  'cfg',
  'row',
  'col',
  'peer',
  'host',
  'port',
  'sock',
  'lock',
  'task',
  'job',
  'queue',
  'slot',
  'page',
  'span',
  'tag',
  'flag',
  'mode',
  'hash',
  'seq',
  'file',
  'line',
];
const WORDS = [
  'the',
  'value',
  'cache',
  'result',
  'caller',
  'state',
  'loop',
  'branch',
  'error',
  'retry',
  'timeout',
  'buffer',
  'config',
  'default',
  'handler',
  'request',
  'response',
  'thread',
  'lock',
  'input',
  'output',
  'limit',
  'offset',
  'format',
  'check',
];
const TYPES = [
  'int',
  'String',
  'bool',
  'long',
  'auto',
  'var',
  'size_t',
  'List<String>',
  'Map<String, Long>',
  'const char*',
  'double',
];
const OPS = ['==', '!=', '<', '>=', '&&', '||', '>'];

/** Code-like lines and reviewer prose from one Rng. */
export class TextMaker {
  constructor(private readonly rng: Rng) {}

  ident(): string {
    const r = this.rng;
    let s = r.pick(SYLLABLES);
    for (let n = r.int(0, 2); n > 0; n--) {
      const p = r.pick(SYLLABLES);
      s += p[0].toUpperCase() + p.slice(1);
    }
    return r.chance(0.25) ? s + r.int(0, 999) : s;
  }

  private typeName(): string {
    const s = this.ident();
    return s[0].toUpperCase() + s.slice(1);
  }

  /** One line of code, indented 0 to 3 levels. */
  line(): string {
    const r = this.rng;
    const id = () => this.ident();
    const w = () => r.pick(WORDS);
    const indent = '    '.repeat(r.int(0, 3));
    switch (r.int(0, 11)) {
      case 0:
        return `${indent}${r.pick(TYPES)} ${id()} = ${id()}(${id()}, ${r.int(0, 999)});`;
      case 1:
        return `${indent}if (${id()} ${r.pick(OPS)} ${id()}) {`;
      case 2:
        return `${indent}return ${id()}.${id()}(${id()});`;
      case 3:
        return `${indent}${id()}.${id()}(${id()}, "${w()} ${id()}");`;
      case 4:
        return `${indent}for (${r.pick(TYPES)} ${id()} : ${id()}.${id()}()) {`;
      case 5:
        return `${indent}// ${w()} ${w()} ${id()} ${w()} ${id()}`;
      case 6:
        return `${indent}${id()} += ${id()} * ${r.int(1, 64)};`;
      case 7:
        return `${indent}throw new ${this.typeName()}Error("${w()} ${id()}");`;
      case 8:
        return `${indent}${id()}: ${r.pick(TYPES)} = ${id()}[${r.int(0, 99)}]`;
      case 9:
        return `${indent}${id()} = ${this.typeName()}.${id()}(${id()}, ${id()});`;
      case 10:
        return `${indent}} else if (${id()}.${id()}()) {`;
      default:
        return r.chance(0.5) ? `${indent}}` : `${indent}${id()}(${id()});`;
    }
  }

  lines(count: number): string[] {
    return Array.from({ length: count }, () => this.line());
  }

  /** The same line with one whitespace-separated token replaced by a fresh identifier. */
  retoken(line: string): string {
    const parts = line.split(/(\s+)/);
    const tokens = parts.map((p, i) => i).filter((i) => parts[i].trim() !== '');
    if (tokens.length === 0) return `${line} ${this.ident()}`;
    parts[this.rng.pick(tokens)] = `${this.ident()}Q`;
    return parts.join('');
  }

  /** The author's answer to a review: every line reworded or new, resized to `count` lines. */
  revise(before: readonly string[], count: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < count; i++)
      out.push(i < before.length && this.rng.chance(0.6) ? this.retoken(before[i]) : this.line());
    return out;
  }

  /** One reviewer comment: a question or request naming code, never an acknowledgement or bot text. */
  reviewComment(): string {
    const r = this.rng;
    const id = () => `\`${this.ident()}\``;
    const w = () => r.pick(WORDS);
    const sentences = [
      () => `Should ${id()} be checked before ${id()} is called?`,
      () => `nit: ${id()} is a confusing name here; maybe ${id()}?`,
      () => `This reads the ${w()} twice. Can we keep the result of ${id()} instead?`,
      () => `Please add a test for the case where ${id()} is empty.`,
      () => `Why not use ${id()} here? It already handles the ${w()} ${w()}.`,
      () => `This can fail when ${id()} is out of range; what happens to the ${w()} then?`,
      () => `I think ${id()} should come from the ${w()}, otherwise the ${w()} is stale.`,
      () => `The same logic lives in ${id()}; could this call it instead of repeating it?`,
      () => `Is the ${w()} still needed after ${id()} returns?`,
    ];
    let text = r.pick(sentences)();
    if (r.chance(0.4)) text += ` ${r.pick(sentences)()}`;
    return text;
  }

  /** A reviewer comment carrying a Gerrit suggested-edit fence. */
  suggestion(): string {
    return `Maybe like this:\n\`\`\`suggestion\n${this.line()}\n\`\`\``;
  }
}

/**
 * The reference Jaccard, written independently of src/core/rules/dedup: the sets of `k`-token shingles
 * (tokens = whitespace-separated runs) of before + "\n" + after, as strings.
 */
export function shingleJaccard(
  a: { before: string; after: string },
  b: { before: string; after: string },
  k = 5,
): number {
  const x = shingles(a.before, a.after, k);
  const y = shingles(b.before, b.after, k);
  let shared = 0;
  for (const s of x) if (y.has(s)) shared++;
  const union = x.size + y.size - shared;
  return union === 0 ? 0 : shared / union;
}

function shingles(before: string, after: string, k: number): Set<string> {
  const tokens = `${before}\n${after}`.split(/\s+/).filter((t) => t !== '');
  const width = Math.min(k, tokens.length);
  const out = new Set<string>();
  for (let i = 0; width > 0 && i + width <= tokens.length; i++) out.add(tokens.slice(i, i + width).join('\u0001'));
  return out;
}
