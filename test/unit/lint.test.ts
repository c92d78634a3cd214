// The layering and no-cycle rules of eslint.config.mjs, run through ESLint's Node API as `npm run lint`
// runs them: the repository's own config for the layering, the cycle rule on modules written to disk.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint as ESLintClass, Linter } from 'eslint';

const ROOT = path.resolve(__dirname, '../..');
// Loaded from node_modules at run time, not bundled into the test suite (ESLint loads its parts dynamically).
const { ESLint } = createRequire(path.join(ROOT, 'package.json'))('eslint') as { ESLint: typeof ESLintClass };

async function lintAs(file: string, code: string): Promise<Linter.LintMessage[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages;
}

const rulesOf = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

describe('lint: src/core layering (no-restricted-imports)', function () {
  this.timeout(60000); // loading typescript-eslint and the config

  it('fails a file under src/core that imports vscode, naming the rule', async () => {
    const messages = await lintAs(
      'src/core/ground/lintProbe.ts',
      "import * as vscode from 'vscode';\nexport const x = vscode.version;\n",
    );
    assert.deepEqual(rulesOf(messages), ['no-restricted-imports']);
    assert.match(messages[0].message, /src\/core never imports vscode/);
  });

  it('fails a type-only vscode import too', async () => {
    assert.deepEqual(
      rulesOf(
        await lintAs(
          'src/core/review/inspect/lintProbe.ts',
          "import type { Uri } from 'vscode';\nexport type U = Uri;\n",
        ),
      ),
      ['no-restricted-imports'],
    );
  });

  it('fails src/core importing src/extension or src/cli, at any depth', async () => {
    const probes = [
      [
        'src/core/ground/lintProbe.ts',
        "import { plainText } from '../../extension/plainText';\nexport const p = plainText;\n",
      ],
      ['src/core/ground/store/lintProbe.ts', "import { runCli } from '../../../cli/main';\nexport const r = runCli;\n"],
      ['src/core/rules/comments/lintProbe.ts', "export { activate } from '../../../extension';\n"],
    ];
    for (const [file, code] of probes)
      assert.deepEqual(rulesOf(await lintAs(file, code)), ['no-restricted-imports'], file);
  });

  it('lets src/extension import vscode and the core', async () => {
    const code =
      "import * as vscode from 'vscode';\nimport { UserError } from '../core/ground/store/errors';\nexport const x = [vscode.version, UserError];\n";
    assert.deepEqual(await lintAs('src/extension/lintProbe.ts', code), []);
  });
});

describe('lint: no import cycles (local/no-import-cycle)', function () {
  this.timeout(60000);
  let dir: string;
  let eslint: ESLintClass;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'review-corpus-lint-'));
    const plugin = (await import(pathToFileURL(path.join(ROOT, 'scripts/lint/noImportCycle.mjs')).href)).default;
    const parser = createRequire(path.join(ROOT, 'package.json'))('typescript-eslint').parser;
    eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: {
        files: ['**/*.ts'],
        languageOptions: { parser },
        plugins: { local: plugin },
        rules: { 'local/no-import-cycle': 'error' },
      },
    });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  async function cyclesIn(files: Record<string, string>): Promise<Record<string, string[]>> {
    for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, name), code);
    const results = await eslint.lintFiles(Object.keys(files).map((f) => path.join(dir, f)));
    return Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages.map((m) => m.message)]));
  }

  it('reports a cycle made only of type imports, as the three of issue #19 were', async () => {
    // As dedup/ was: the index imports a part, and the part imports the shared types from the index.
    const found = await cyclesIn({
      'index.ts':
        "import { part } from './part';\nexport interface Shared { n: number }\nexport const run = (s: Shared) => part(s);\n",
      'part.ts': "import type { Shared } from './index';\nexport const part = (s: Shared) => s.n;\n",
    });
    assert.match(found['index.ts'].join('\n'), /Import cycle: index\.ts → part\.ts → index\.ts/);
    assert.match(found['part.ts'].join('\n'), /Import cycle: part\.ts → index\.ts → part\.ts/);
  });

  it('reports a longer cycle through export-from, and none once the shared types have their own module', async () => {
    const cyclic = await cyclesIn({
      'a.ts': "export { b } from './b';\nexport type A = number;\n",
      'b.ts': "import { c } from './c';\nexport const b = c;\n",
      'c.ts': "import type { A } from './a';\nexport const c: A = 1;\n",
    });
    assert.match(cyclic['c.ts'].join('\n'), /c\.ts → a\.ts → b\.ts → c\.ts/);
    const oneWay = await cyclesIn({
      'types.ts': 'export type A = number;\n',
      'a.ts': "export { b } from './b';\nexport type { A } from './types';\n",
      'c.ts': "import type { A } from './types';\nexport const c: A = 1;\n",
    });
    assert.deepEqual(oneWay, { 'types.ts': [], 'a.ts': [], 'c.ts': [] });
  });

  it('finds none in the modules whose cycles issue #19 named', async () => {
    const repo = new ESLint({ cwd: ROOT });
    const files = [
      'src/core/rules/dedup/index.ts',
      'src/extension/session.ts',
      'src/extension/exampleCache.ts',
      'src/extension/tree/registerTree.ts',
      'src/extension/tree/registerFilter.ts',
    ];
    const results = await repo.lintFiles(files.map((f) => path.join(ROOT, f)));
    const cycles = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === 'local/no-import-cycle').map((m) => m.message),
    );
    assert.deepEqual(cycles, []);
  });
});

describe('lint: the layers of src/core (local/layer-order)', function () {
  this.timeout(60000);
  const layersModule = (): Promise<{ LAYERS: { name: string; holds: string; role: string }[] }> =>
    import(pathToFileURL(path.join(ROOT, 'scripts/lint/layers.mjs')).href);

  it('fails an import from a layer above, naming both layers and what may be imported', async () => {
    const messages = await lintAs(
      'src/core/rules/lintProbe.ts',
      "import { runBuild } from '../build/stages/runBuild';\nexport const x = runBuild;\n",
    );
    assert.deepEqual(rulesOf(messages), ['local/layer-order']);
    assert.equal(
      messages[0].message,
      'rules imports build, a layer above it. src/core/rules may import only from ground, gerrit, rules ' +
        '(docs/architecture.md); move what both need down, or pass it in.',
    );
  });

  it('passes imports from the same layer and the layers below', async () => {
    const messages = await lintAs(
      'src/core/build/stages/lintProbe.ts',
      "import { FUNNEL } from '../../rules/funnel';\nimport { UserError } from '../../ground/store/errors';\n" +
        "import { runBuild } from './runBuild';\nexport const x = [FUNNEL, UserError, runBuild];\n",
    );
    assert.deepEqual(rulesOf(messages), []);
  });

  it('fails a module outside every layer', async () => {
    const messages = await lintAs('src/core/loose.ts', 'export const x = 1;\n');
    assert.deepEqual(rulesOf(messages), ['local/layer-order']);
    assert.match(messages[0].message, /src\/core\/loose\.ts is in no layer/);
  });

  it('is the tree: src/core holds exactly the layers, and docs/architecture.md lists them in order', async () => {
    const { LAYERS } = await layersModule();
    const names = LAYERS.map((l) => l.name);
    const folders = readdirSync(path.join(ROOT, 'src/core'), { withFileTypes: true });
    assert.deepEqual(folders.map((d) => (d.isDirectory() ? d.name : `file ${d.name}`)).sort(), [...names].sort());
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(rows, names);
  });
});
