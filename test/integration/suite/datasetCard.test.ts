// Export… from the palette writes the publishable files beside the JSONL: the split files, counts.csv,
// curation_audit.jsonl and the dataset card, whose license comes from the corpus.json open in the
// editor (changed after the build, and no rebuild needed).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { openSampleCorpus, workspaceDir } from './support';

describe('dataset card', function () {
  this.timeout(120_000);

  it("Export… writes counts.csv, curation_audit.jsonl and README.md beside the examples, with the config's license", async () => {
    const a = await openSampleCorpus('card-sample');
    const c = a.session.corpus!;
    const config = JSON.parse(readFileSync(c.configFile, 'utf8'));
    writeFileSync(
      c.configFile,
      JSON.stringify({ ...config, card: { license: 'cc-by-sa-4.0', language: ['en'] } }, null, 2),
    );
    const dir = path.join(workspaceDir(), 'card-export');
    mkdirSync(dir, { recursive: true });
    const out = path.join(dir, 'examples.jsonl');
    const r = await vscode.commands.executeCommand<{ summary: string }>('reviewCorpus.export', out);
    assert.match(String(r?.summary), /counts\.csv, curation_audit\.jsonl and the dataset card README\.md/);
    assert.doesNotMatch(String(r?.summary), /Warning/, 'a license is set: no warning');

    const kept = readFileSync(out, 'utf8').trim().split('\n').length;
    const counts = readFileSync(path.join(dir, 'counts.csv'), 'utf8').trim().split('\n');
    assert.equal(counts[0], 'org,stage,rule,unit,input,removed,removed_note,remaining');
    // remaining is the last column; removed_note before it is free text (quoted when it holds a comma).
    const lastRemaining = (org: string) =>
      Number(
        counts
          .filter((l) => l.startsWith(`${org},`) && l.split(',')[3] === 'examples')
          .at(-1)!
          .split(',')
          .at(-1),
      );
    const orgs = [...new Set(counts.slice(1).map((l) => l.split(',')[0]))];
    assert.equal(
      orgs.reduce((n, o) => n + lastRemaining(o), 0),
      kept,
      'what the funnel leaves is what was exported',
    );

    const removed = Number(
      c.store.scalar("SELECT count(*) FROM decisions WHERE build_id = ? AND rule != 'kept'", [c.buildId!]),
    );
    assert.equal(readFileSync(path.join(dir, 'curation_audit.jsonl'), 'utf8').trim().split('\n').length, removed);

    const card = readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert.match(
      card,
      /^---\n[\s\S]*\nlicense: "cc-by-sa-4\.0"\n[\s\S]*\n {2}- split: "train"\n {4}path: "data\/train\.jsonl"\n[\s\S]*\n---\n/,
    );
    assert.ok(existsSync(path.join(dir, 'data', 'train.jsonl')));
    const hash = String(c.store.scalar('SELECT corpus_hash FROM builds WHERE id = ?', [c.buildId!]));
    assert.ok(card.includes(`| corpus hash | \`${hash}\` |`), "the card names the exported build's corpus hash");
  });
});
