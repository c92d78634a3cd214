// "Export for the Hub…" from the palette in the real VS Code: the job process writes the folder the Hub
// takes (Parquet shards per split, the card with the Hub's front matter, the reports) and the
// notification says what it wrote. The unit suite reads the shards back with DuckDB; here, the command.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { openSampleCorpus, workspaceDir } from './support';

describe('export for the Hub', function () {
  this.timeout(120_000);

  it('writes Parquet shards, the Hub card and the reports into the folder, through the job process', async () => {
    await openSampleCorpus('hub-sample');
    const out = path.join(workspaceDir(), 'hub-export');
    const r = await vscode.commands.executeCommand<{ summary: string }>('reviewCorpus.exportHub', out);
    assert.match(
      String(r?.summary),
      /^Exported for the Hub to .*: \d+ examples in \d+ Parquet shards \(.*train \d+.*\) from build \d+'s stored records/,
    );
    const shards = readdirSync(path.join(out, 'data')).sort();
    assert.ok(shards.includes('train-00000-of-00001.parquet'), shards.join(', '));
    for (const s of shards) {
      assert.match(s, /^\w+-\d{5}-of-\d{5}\.parquet$/);
      const bytes = readFileSync(path.join(out, 'data', s));
      assert.equal(bytes.subarray(0, 4).toString('latin1'), 'PAR1', `${s} is a Parquet file`);
      assert.equal(bytes.subarray(-4).toString('latin1'), 'PAR1');
    }
    const card = readFileSync(path.join(out, 'README.md'), 'utf8');
    assert.match(
      card,
      /^---\n[\s\S]*\n {2}- split: "train"\n {4}path: "data\/train-\*\.parquet"\n[\s\S]*\ndataset_info:\n {2}features:\n/,
    );
    for (const f of ['counts.csv', 'curation_audit.jsonl', 'dataset-funnel.json'])
      assert.ok(existsSync(path.join(out, f)), `${f} beside the shards`);
  });
});
