// User-facing text stands on its own: no string a user can meet (CLI help, an error line, a schema
// description, a tooltip, a card sentence, the docs) names the product brief or a source document by its
// number; it names the repository's own docs/ page instead. Code comments may cite a published paper by
// its title. Scans every string literal of src/ and webview/ (TypeScript's own scanner, so comments are
// left out), every string of package.json and schemas/*.json, and the Markdown a user reads.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
// Loaded from node_modules at run time, not bundled into the test suite.
const ts = createRequire(path.join(ROOT, 'package.json'))('typescript') as typeof TS;

/** What must not appear: the brief's file name, a source document's number ("seed 001", "seeds 000 and 001"), their folder. */
const CITATION = /PRODUCT\.md|\bseeds?[ -]?\d{3}\b|\bseeds\/|\bseeds'/i;

function filesUnder(dir: string, suffix: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => suffix.test(f))
    .map((f) => path.join(dir, f));
}

/** Each string literal (template parts included) of a TypeScript file that cites, as `file:line: text`. */
function citingLiterals(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      if (CITATION.test(node.text))
        out.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Each string value or key of a JSON file that cites, as `file: json.path: text`. */
function citingJsonStrings(file: string): string[] {
  const out: string[] = [];
  const visit = (value: unknown, at: string): void => {
    if (typeof value === 'string') {
      if (CITATION.test(value)) out.push(`${file}: ${at}: ${value}`);
    } else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (CITATION.test(k)) out.push(`${file}: ${at}: key ${k}`);
        visit(v, `${at}.${k}`);
      }
  };
  visit(JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')), '$');
  return out;
}

/** Each line of a Markdown page that cites, as `file:line: text`. */
function citingLines(file: string): string[] {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .flatMap((line, i) => (CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('user-facing text stands on its own', () => {
  it('no string literal in src/ or webview/ names PRODUCT.md or a seed', () => {
    const files = [...filesUnder('src', /\.ts$/), ...filesUnder('webview', /\.ts$/)];
    assert.ok(files.length > 100, `scanned ${files.length} files`);
    assert.deepEqual(files.flatMap(citingLiterals), []);
  });

  it('no string in package.json or schemas/*.json (the generated schemas included) does', () => {
    const files = ['package.json', ...filesUnder('schemas', /\.json$/)];
    assert.ok(files.includes('schemas/corpus.schema.json'));
    assert.deepEqual(files.flatMap(citingJsonStrings), []);
  });

  it('no line of README.md, CONTRIBUTING.md, docs/ or the walkthrough does', () => {
    const files = [
      'README.md',
      'CONTRIBUTING.md',
      ...filesUnder('docs', /\.md$/),
      ...filesUnder('media/walkthrough', /\.md$/),
    ];
    assert.deepEqual(files.flatMap(citingLines), []);
  });

  it('catches a citation in a string, a template, JSON and Markdown, and not in a comment or a random seed', () => {
    for (const text of [
      'seed 001',
      "seed 002's framework",
      'PRODUCT.md, "Units"',
      'seeds 000 and 001',
      "the seeds' hosts",
    ])
      assert.match(text, CITATION, text);
    for (const text of [
      '--seed 20261202',
      'the seed the sample is drawn with',
      'seeded sample',
      'default 50 and 20241001',
    ])
      assert.doesNotMatch(text, CITATION, text);
    const source = ts.createSourceFile(
      'probe.ts',
      "// seed 001 in a comment\nconst a = 'plain'; const b = `x ${a} seed 003`;\n",
      ts.ScriptTarget.Latest,
      true,
    );
    const found: string[] = [];
    const visit = (node: TS.Node): void => {
      if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && CITATION.test(node.text))
        found.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
    assert.deepEqual(found, [' seed 003']);
  });
});
