// The funnel picture of the sample corpus: every number it draws is the number the funnel report's
// table shows (counts.csv's rows), and those agree with the build's funnel and its kept examples.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSampleCorpus } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { latestBuildId } from '../../src/core/review/inspect/groups';
import { funnelReportData } from '../../src/extension/funnel/funnelData';
import { formatCount, type SvgNode } from '../../src/core/publish/export/funnelPicture';
import { FUNNEL } from '../../src/core/rules/funnel';

const all = (n: SvgNode): SvgNode[] => [n, ...(n.children ?? []).flatMap(all)];
const TITLE =
  /^(.+): (\w+) · (\w+): ([\d,]+) (\w+) remaining \((?:([\d,]+) removed|removed: (?:not counted|off))\) of ([\d,]+)$/;

describe('the funnel picture of the sample corpus', function () {
  this.timeout(60_000);
  let store: CorpusStore;
  let data: ReturnType<typeof funnelReportData>;

  before(async () => {
    const { dbFile } = await buildSampleCorpus(mkdtempSync(path.join(tmpdir(), 'rc-picture-')));
    store = await CorpusStore.open(dbFile);
    data = funnelReportData(store, latestBuildId(store)!, 'sample');
  });
  after(() => store?.close());

  it("draws every rule of every organization with the table's numbers", () => {
    const rows = all(data.picture).filter((n) => n.attrs?.['data-rule'] !== undefined);
    const orgs = Object.keys(data.funnel.organizations);
    assert.equal(rows.length, orgs.length * FUNNEL.length);
    for (const table of data.counts) {
      const row = rows.find(
        (n) =>
          n.attrs!['data-org'] === table.org &&
          n.attrs!['data-stage'] === table.stage &&
          n.attrs!['data-rule'] === table.rule,
      );
      assert.ok(row, `${table.org} ${table.rule} is drawn`);
      const m = TITLE.exec(String(row.children?.find((c) => c.tag === 'title')?.text));
      assert.ok(m, `${table.org} ${table.rule} has a hover title`);
      // The table's cells: removed, remaining (formatCount, as the page writes them).
      assert.equal(m[4], formatCount(table.remaining));
      assert.equal(m[6] ?? (table.off ? 'off' : 'not counted'), table.off ? 'off' : formatCount(table.removed));
      assert.equal(m[7], formatCount(table.input));
      assert.equal(m[5], table.unit);
      // And the funnel the build wrote (what `review-corpus funnel` prints).
      const built = data.funnel.organizations[table.org].funnel.find(
        (r) => r.stage === table.stage && r.rule === table.rule,
      )!;
      assert.equal(table.removed, built.removed);
    }
  });

  it("ends each organization's flow at its kept examples, split by window as the build counted them", () => {
    for (const [org, o] of Object.entries(data.funnel.organizations)) {
      const kept = Number(
        store.scalar(
          'SELECT count(*) FROM examples WHERE build_id = ? AND rule IS NULL AND change_id IN (SELECT c.id FROM changes c JOIN hosts h ON h.id = c.host_id WHERE h.org = ?)',
          [data.funnel.build, org],
        ),
      );
      const last = data.counts.filter((r) => r.org === org && r.unit === 'examples').at(-1)!;
      assert.equal(last.remaining, kept, `${org}: the last examples row leaves the kept examples`);
      const windows = all(data.picture).filter(
        (n) => n.attrs?.['data-org'] === org && n.attrs?.['data-stage'] === 'windows',
      );
      const shown = windows.map((n) => String(n.children![0].text));
      for (const [w, r] of Object.entries(o.windows)) {
        assert.ok(
          shown.includes(
            r.sealed
              ? `${org}: windows · ${w}: sealed (not built)`
              : `${org}: windows · ${w}: ${formatCount(r.examples)} examples kept`,
          ),
          `${org} ${w}`,
        );
      }
      const inWindows =
        Object.values(o.windows).reduce((n, r) => n + (r.examples ?? 0), 0) + (o.counters.outside_windows ?? 0);
      assert.equal(inWindows, kept, `${org}: the windows share out the kept examples`);
    }
  });
});
