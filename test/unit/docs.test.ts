// The front door and the docs: README.md stays small, the generated parts of docs/rules.md and
// docs/cli.md are what the code declares (`npm run docs`), and every relative link in README.md,
// CONTRIBUTING.md and docs/*.md names a file that exists and, with a #fragment, a heading in it.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import MarkdownIt, { type MarkdownToken } from 'markdown-it';
import { withCliReference } from '../../src/cli/cliReference';
import { COMMANDS } from '../../src/cli/commands';
import { COUNTERS } from '../../src/core/rules/counters';
import { RULES } from '../../src/core/rules/funnel';
import { RULE_PARAMETERS } from '../../src/core/rules/ruleParameters';
import { headingAnchor, withRulesReference } from '../../src/core/rules/rulesReference';

const ROOT = path.resolve(__dirname, '../..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const md = new MarkdownIt({ html: true });

function walk(tokens: MarkdownToken[], visit: (t: MarkdownToken, line: number) => void, line = 0): void {
  for (const t of tokens) {
    const here = t.map ? t.map[0] + 1 : line;
    visit(t, here);
    if (t.children) walk(t.children, visit, here);
  }
}

/** The anchors a page's headings (and explicit `id`/`name` attributes) give, as GitHub makes them. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const tokens = md.parse(text, {});
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const inline = tokens[i + 1];
    const words = (inline.children ?? [])
      .filter((c) => c.type === 'text' || c.type === 'code_inline')
      .map((c) => c.content)
      .join('');
    const base = headingAnchor(words);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  });
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** Every link and image target of a page outside code, with its line. */
function linksOf(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  walk(md.parse(text, {}), (t, line) => {
    const target = t.type === 'link_open' ? t.attrGet('href') : t.type === 'image' ? t.attrGet('src') : null;
    if (target !== null) out.push({ target, line });
  });
  return out;
}

describe('docs: the front door and every page it links', () => {
  it('keeps README.md under 12 KB', () => {
    const bytes = statSync(path.join(ROOT, 'README.md')).size;
    assert.ok(bytes < 12 * 1024, `README.md is ${bytes} bytes; move detail to docs/`);
  });

  it('resolves every relative link and #anchor in README.md, CONTRIBUTING.md and docs/*.md', () => {
    const broken: string[] = [];
    const anchorCache = new Map<string, Set<string>>();
    const anchors = (file: string) => {
      if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
      return anchorCache.get(file)!;
    };
    let checked = 0;
    for (const page of PAGES) {
      for (const { target, line } of linksOf(read(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, command: …
        checked++;
        const [file, fragment] = target.split('#', 2) as [string, string | undefined];
        const resolved = file === '' ? path.join(ROOT, page) : path.resolve(ROOT, path.dirname(page), decodeURI(file));
        if (!existsSync(resolved)) broken.push(`${page}:${line}: ${target} (no such file)`);
        else if (fragment !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(fragment))
          broken.push(`${page}:${line}: ${target} (no heading #${fragment} in ${path.relative(ROOT, resolved)})`);
      }
    }
    assert.ok(checked > 20, `checked ${checked} links`);
    assert.deepEqual(broken, []);
  });

  it('docs/rules.md holds the rules, parameters and counters the declarations generate (npm run docs)', () => {
    const page = read('docs/rules.md');
    const regenerated = withRulesReference(page);
    assert.ok(regenerated !== undefined, 'docs/rules.md has the rules-reference markers');
    assert.equal(regenerated, page, 'docs/rules.md is stale: run `npm run docs`');
    for (const r of RULES) assert.ok(page.includes(`#### \`${r.id}\``), r.id);
    for (const name of Object.keys(RULE_PARAMETERS)) assert.ok(page.includes(`| \`${name}\` |`), name);
    for (const c of COUNTERS) assert.ok(page.includes(`- \`${c.name}\``), c.name);
  });

  it("docs/cli.md holds every command's --help as the commands declare it (npm run docs)", () => {
    const page = read('docs/cli.md');
    const regenerated = withCliReference(page);
    assert.ok(regenerated !== undefined, 'docs/cli.md has the cli-reference markers');
    assert.equal(regenerated, page, 'docs/cli.md is stale: run `npm run docs`');
    for (const c of COMMANDS) assert.ok(page.includes(`usage: review-corpus ${c.name} `), c.name);
  });

  it('finds a broken link and a missing anchor (the checker itself)', () => {
    assert.deepEqual([...anchorsOf('# A `b_c` d\n\n## A `b_c` d\n')], ['a-b_c-d', 'a-b_c-d-1']);
    assert.deepEqual(
      linksOf('[x](a.md#y) `[no](code.md)`\n\n```\n[no](fence.md)\n```\n![i](p.png)\n').map((l) => l.target),
      ['a.md#y', 'p.png'],
    );
  });
});
