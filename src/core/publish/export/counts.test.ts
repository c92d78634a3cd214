import assert from 'node:assert/strict';
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import { countRows, countsCsv, type DecisionTotals } from './counts';

describe('counts.csv rows', () => {
  // A host whose probe failed: no_comments is "not counted" in the funnel (null); bot_account only partly counted.
  const funnel = {
    corpus: 'c',
    build: 1,
    rulesVersion: 'r',
    createdAt: 't',
    organizations: {
      gerrit: {
        funnel: [
          { stage: 'collection', rule: 'created_before_start', unit: 'changes', removed: 2 },
          {
            stage: 'collection',
            rule: 'no_comments',
            unit: 'changes',
            removed: null,
            notCounted: 'probe failed: 1 of 2 had comments; fetched without the shortcut',
          },
          { stage: 'collection', rule: 'fetch_error', unit: 'changes', removed: 1 },
          { stage: 'comments', rule: 'own_author', unit: 'comments', removed: 4 },
          { stage: 'comments', rule: 'bot_account', unit: 'comments', removed: 3, partly: 'the "x" part, not run' },
          { stage: 'hunks', rule: 'size', unit: 'hunks', removed: 1 },
          { stage: 'examples', rule: 'rebase_only', unit: 'examples', removed: 2 },
          { stage: 'duplicates', rule: 'near_duplicate', unit: 'examples', removed: 1 },
        ],
        counters: {},
        windows: {},
      },
    },
  } as unknown as DatasetFunnel;
  const totals = new Map<string, DecisionTotals>([
    [
      'gerrit',
      {
        remaining: { changes: 10, comments: 20, hunks: 6, examples: 3 },
        removed: new Map([['collection\0no_comments', 5]]),
      },
    ],
  ]);

  it("leaves a not-counted rule's removed empty, never 0, with why beside it, and keeps the rows around it whole", () => {
    const rows = countRows(funnel, totals);
    assert.deepEqual(
      rows.map((r) => [r.rule, r.input, r.removed, r.remaining]),
      [
        ['created_before_start', 18, 2, 16],
        ['no_comments', 16, null, 11],
        ['fetch_error', 11, 1, 10],
        ['own_author', 27, 4, 23],
        ['bot_account', 23, 3, 20],
        ['size', 7, 1, 6],
        ['rebase_only', 6, 2, 4],
        ['near_duplicate', 4, 1, 3],
      ],
    );
    const csv = countsCsv(rows).split('\n');
    assert.equal(csv[0], 'org,stage,rule,unit,input,removed,removed_note,remaining');
    assert.equal(csv[1], 'gerrit,collection,created_before_start,changes,18,2,,16', 'a plain count: no note');
    assert.equal(
      csv[2],
      'gerrit,collection,no_comments,changes,16,,not counted: probe failed: 1 of 2 had comments; fetched without the shortcut,11',
    );
    assert.equal(
      csv[5],
      'gerrit,comments,bot_account,comments,23,3,"partly counted: the ""x"" part, not run",20',
      'a lower bound says so, quoted where CSV needs it',
    );
  });

  it('quotes a field only where CSV needs it', () => {
    const csv = countsCsv([
      { org: 'a,"b"', stage: 's', rule: 'r', unit: 'changes', input: 1, removed: 0, removedNote: null, remaining: 1 },
    ]);
    assert.equal(csv.split('\n')[1], '"a,""b""",s,r,changes,1,0,,1');
  });
});
