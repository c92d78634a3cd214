// The funnel report's picture in the real VS Code: its hover numbers are the table's, clicking a row
// reveals the rule in the tree, Save as SVG writes a standalone SVG file, and the panel (title and
// content) follows the open corpus.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import * as sax from 'sax';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import { openSampleCorpus, until, workspaceDir } from './support';
import { FUNNEL } from '../../../src/core/rules/funnel';
import { copyCorpus } from '../../../src/core/ground/store/copyCorpus';

const ROW = (org: string, rule: string) => `g[data-org="${org}"][data-rule="${rule}"]`;
const HEADING = 'main[data-page="funnel"] > h1';

function funnelTabLabel(): string | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('reviewCorpus.funnel'))?.label;
}

/** Every element and text of an SVG file, read by a strict XML parser (which throws on anything malformed). */
function parseSvg(xml: string): { root: sax.Tag; tags: sax.Tag[]; texts: string[] } {
  const tags: sax.Tag[] = [];
  const texts: string[] = [];
  const p = sax.parser(true);
  p.onopentag = (t) => tags.push(t);
  p.ontext = (t) => texts.push(t);
  p.onerror = (e) => {
    throw e;
  };
  p.write(xml).close();
  return { root: tags[0], tags, texts };
}

describe('funnel picture', function () {
  this.timeout(120_000);
  let a: ReviewCorpusApi;
  let removed: string;
  let remaining: string;
  /** own_author's hover title, from the table's numbers. */
  let expectedTitle: string;

  before(async () => {
    a = await openSampleCorpus('picture-sample');
    await vscode.commands.executeCommand('workbench.view.extension.reviewCorpus');
    await vscode.commands.executeCommand('reviewCorpus.showFunnel');
    const table = await dom.frameText('[aria-label="openstack funnel"]', 20000);
    const m = /own_author\s+comments\s+([\d,]+)\s+([\d,]+)/.exec(table);
    assert.ok(m, `the table has own_author's removed and remaining: ${table.slice(0, 300)}`);
    [, removed, remaining] = m;
    const input = (Number(removed.replace(/,/g, '')) + Number(remaining.replace(/,/g, ''))).toLocaleString('en-US');
    expectedTitle = `openstack: comments · own_author: ${remaining} comments remaining (${removed} removed) of ${input}`;
  });

  it("shows in a row's hover title the numbers of the table", async () => {
    assert.equal(await dom.frameText(`${ROW('openstack', 'own_author')} > title`, 20000), expectedTitle);
    assert.equal(await dom.frameCount('g[data-org="openstack"][data-rule]'), FUNNEL.length, 'a row per rule');
    await dom.screenshot('funnel-picture');
  });

  it('reveals a clicked row in the tree, as a table row does', async () => {
    const selected = () => a.tree.view.selection[0];
    await dom.frameClick(ROW('openstack', 'own_author'), 20000);
    const group = await until('the own_author group selected', () => {
      const s = selected();
      return s?.type === 'group' && s.ref.org === 'openstack' && s.ref.rule === 'own_author' ? s : undefined;
    });
    assert.equal(group.ref.unit, 'comments');
    await dom.frameClick('g[data-org="openstack"][data-stage="windows"][data-window="train"]', 20000);
    await until("train's kept group selected", () => {
      const s = selected();
      return s?.type === 'group' && s.ref.org === 'openstack' && s.ref.window === 'train' && s.ref.rule === 'kept'
        ? s
        : undefined;
    });
  });

  it('saves the picture as a standalone SVG file with the same numbers', async () => {
    const out = path.join(workspaceDir(), 'picture-sample', 'funnel.svg');
    const written = await vscode.commands.executeCommand<string>('reviewCorpus.saveFunnelSvg', out);
    assert.equal(written, out);
    const xml = readFileSync(out, 'utf8');
    const { root, tags, texts } = parseSvg(xml);
    assert.equal(root.name, 'svg');
    assert.equal(root.attributes.xmlns, 'http://www.w3.org/2000/svg');
    assert.ok(Number(root.attributes.width) > 0 && Number(root.attributes.height) > 0, 'the file has its own size');
    assert.ok(texts.includes(expectedTitle));
    assert.ok(texts.includes('Funnel: sample'));
    assert.doesNotMatch(xml, /var\(--/, 'no theme variable is left unresolved');
    assert.ok(
      !tags.some((t) => 'class' in t.attributes || 'tabindex' in t.attributes),
      "nothing depends on the page's CSS or is interactive",
    );
    const bar = tags.find((t) => t.name === 'rect' && /fill: rgb/.test(t.attributes.style ?? ''));
    assert.ok(bar, 'bars carry concrete colours');
  });

  it('follows the open corpus: title and content change with it', async () => {
    const dir = path.join(workspaceDir(), 'picture-other');
    mkdirSync(dir, { recursive: true });
    const source = a.session.corpus!;
    copyCorpus(source.dbFile, path.join(dir, 'corpus.sqlite'));
    const config = JSON.parse(readFileSync(source.configFile, 'utf8'));
    writeFileSync(path.join(dir, 'corpus.json'), JSON.stringify({ ...config, name: 'other-corpus' }, null, 2));
    assert.equal(funnelTabLabel(), 'Funnel: sample');

    await vscode.commands.executeCommand('reviewCorpus.openCorpus', path.join(dir, 'corpus.json'));
    await until('the title follows', () => funnelTabLabel() === 'Funnel: other-corpus' || undefined);
    await until(
      'the content follows',
      async () => (await dom.frameText(HEADING, 10000)) === 'Funnel: other-corpus' || undefined,
    );
    assert.equal(await dom.frameText(`${ROW('openstack', 'own_author')} > title`, 10000), expectedTitle);

    // A corpus with nothing fetched yet: no numbers are left standing.
    writeFileSync(
      path.join(dir, 'empty.json'),
      JSON.stringify({ ...config, name: 'empty-corpus', db: 'empty.sqlite' }, null, 2),
    );
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', path.join(dir, 'empty.json'));
    await until('the title says so', () => funnelTabLabel() === 'Funnel: no corpus' || undefined);
    await until(
      'the content says so',
      async () => (await dom.frameText('main[data-page="funnel"] > p', 10000)) === 'No corpus is open.' || undefined,
    );
    assert.equal(await dom.frameCount('g[data-rule]'), 0);

    await vscode.commands.executeCommand('reviewCorpus.openCorpus', source.configFile);
    await until('back to the sample', () => funnelTabLabel() === 'Funnel: sample' || undefined);
  });
});
