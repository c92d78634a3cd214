import assert from 'node:assert/strict';
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import { countRows, type DecisionTotals } from './counts';
import { funnelPictureData, layoutFunnelPicture, type SvgNode } from './funnelPicture';

const all = (n: SvgNode): SvgNode[] => [n, ...(n.children ?? []).flatMap(all)];
const rowOf = (svg: SvgNode, rule: string) => all(svg).find((n) => n.attrs?.['data-rule'] === rule)!;
const classes = (n: SvgNode) =>
  all(n)
    .map((c) => c.attrs?.class)
    .filter(Boolean);

// A host whose listing lacked comment counts: no_comments is "not counted" (null).
const funnel = {
  corpus: 'c',
  build: 1,
  rulesVersion: 'r',
  createdAt: 't',
  organizations: {
    '<b>gerrit</b>': {
      funnel: [
        { stage: 'collection', rule: 'created_before_start', unit: 'changes', removed: 2 },
        { stage: 'collection', rule: 'no_comments', unit: 'changes', removed: null },
        { stage: 'comments', rule: 'own_author', unit: 'comments', removed: 4 },
        { stage: 'comments', rule: 'no_line', unit: 'comments', removed: 0 },
        { stage: 'hunks', rule: 'size', unit: 'hunks', removed: 1 },
        { stage: 'examples', rule: 'rebase_only', unit: 'examples', removed: 2 },
        { stage: 'duplicates', rule: 'near_duplicate', unit: 'examples', removed: 1 },
      ],
      counters: { outside_windows: 1 },
      windows: {
        train: { examples: 2, funnel: [], counters: {} },
        test: { sealed: true, examples: null, funnel: [], counters: {} },
      },
    },
  },
} as unknown as DatasetFunnel;
const totals = new Map<string, DecisionTotals>([
  [
    '<b>gerrit</b>',
    {
      remaining: { changes: 10, comments: 20, hunks: 6, examples: 3 },
      removed: new Map([['collection\0no_comments', 5]]),
    },
  ],
]);
const rows = countRows(funnel, totals);
const svg = layoutFunnelPicture('c', funnelPictureData(funnel, rows));

describe('the funnel picture', () => {
  it('marks a rule not counted on a host, with no removed bar, never as 0', () => {
    const row = rowOf(svg, 'no_comments');
    assert.ok(classes(row).includes('fp-not-counted'));
    assert.ok(!classes(row).includes('fp-removed'));
    assert.equal(
      row.children![0].text,
      '<b>gerrit</b>: collection · no_comments: 10 changes remaining (removed: not counted) of 15',
    );
    assert.ok(all(row).some((n) => n.text === 'not counted'));
  });

  it("draws the removed part in proportion, on each unit kind's own scale", () => {
    const bar = (rule: string, cls: string) =>
      Number(all(rowOf(svg, rule)).find((n) => n.attrs?.class === cls)?.attrs?.width ?? 0);
    // changes: 17 in, so created_before_start keeps 15/17 of the width and removes 2/17.
    assert.equal(bar('created_before_start', 'fp-remaining'), Math.round((15 / 17) * 140 * 10) / 10);
    assert.equal(bar('created_before_start', 'fp-removed'), Math.round((2 / 17) * 140 * 10) / 10);
    // comments start over: 24 in, the first comment rule is as wide as the first change rule's input.
    assert.equal(bar('own_author', 'fp-remaining') + bar('own_author', 'fp-removed'), 140);
    assert.equal(bar('no_line', 'fp-removed'), 0, 'a rule that removed nothing has no removed bar');
    // hunks carry on as examples: the 6 hunks left are the 6 examples in, as wide.
    assert.equal(bar('size', 'fp-remaining'), bar('rebase_only', 'fp-remaining') + bar('rebase_only', 'fp-removed'));
    assert.equal(bar('size', 'fp-remaining'), Math.round((6 / 7) * 140 * 10) / 10);
  });
});

describe('the funnel picture: flow, windows and host text', () => {
  it('breaks the flow where the unit changes, and carries it on from hunks to examples', () => {
    const breaks = all(svg)
      .filter((n) => n.attrs?.class === 'fp-unit-break')
      .map((n) => n.children![0].text);
    assert.deepEqual(breaks, [
      'The unit changes here: counts above and below are of different things (comments from here)',
      'The unit changes here: counts above and below are of different things (hunks from here)',
      'The kept examples, by window',
    ]);
    const units = all(svg)
      .filter((n) => n.attrs?.class === 'fp-unit')
      .map((n) => n.text);
    assert.deepEqual(units, [
      'changes · listed',
      'comments · of the kept changes',
      'hunks · around anchored comments',
      'examples · each hunk left',
      'windows · the examples kept',
    ]);
  });

  it('shows the sealed window as sealed, and the kept examples in and outside windows', () => {
    const titles = all(svg)
      .filter((n) => n.attrs?.['data-stage'] === 'windows')
      .map((n) => n.children![0].text);
    assert.deepEqual(titles, [
      '<b>gerrit</b>: windows · train: 2 examples kept',
      '<b>gerrit</b>: windows · test: sealed (not built)',
      '<b>gerrit</b>: windows · outside windows: 1 examples kept',
    ]);
  });

  it('keeps host text as text: the organization name is a text node and a data attribute, never an element', () => {
    assert.ok(all(svg).some((n) => n.tag === 'text' && n.text === '<b>gerrit</b>'));
    assert.ok(all(svg).every((n) => ['svg', 'g', 'rect', 'text', 'line', 'polygon', 'title'].includes(n.tag)));
  });
});
