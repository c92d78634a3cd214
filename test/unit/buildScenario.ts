// A corpus holding at least one unit for every rule of the funnel, with the expected outcome of each.
// `populate` can insert the changes in reverse order: the build must not depend on insertion order.
import { CorpusFixture, diffOf, numbered, testConfig } from './buildFixture';
import type { CorpusConfig } from '../../src/core/ground/config/types';

const REV = 'p-rev';
const OWNER = 'p-owner';

type Step = (fx: CorpusFixture) => void;

// Sixteen distinct tokens per line, so one changed token leaves the texts ≥ 0.85 alike (Jaccard).
const long = (i: number, extra = '') => Array.from({ length: 16 }, (_, k) => `tok${i}_${k}`).join(' ') + extra;

const STEPS: Step[] = [
  // Collection: one change per collection rule. #100's comment is no unit of the build.
  (fx) => {
    const id = fx.change({ number: 100, created: '2024-09-15T09:00:00Z' });
    fx.editedFile(id, 'old.py');
  },
  // #105 was listed although not merged (the host's query let it through); its comment is no unit either.
  (fx) => {
    const id = fx.change({ number: 105, created: '2024-10-06T09:00:00Z', status: 'ABANDONED' });
    fx.editedFile(id, 'abandoned.py');
  },
  (fx) => void fx.change({ number: 101, created: '2024-10-05T09:00:00Z', collectionRule: 'no_comments' }),
  (fx) => void fx.change({ number: 102, created: '2025-12-01T09:00:00Z', collectionRule: 'sealed_window' }),
  (fx) => void fx.change({ number: 103, created: '2024-10-05T09:00:00Z', collectionRule: 'disallowed' }),
  (fx) =>
    void fx.change({
      number: 104,
      created: '2024-10-05T09:00:00Z',
      collectionRule: 'fetch_error',
      fetchError: 'HTTP 500',
    }),

  // #110: one comment per comment rule on one file, line 10 edited from patch set 1 to 2.
  (fx) => {
    const id = fx.change({ number: 110, created: '2024-10-10T12:00:00Z', kinds: [null, 'REWORK', 'REWORK'] });
    const before = numbered(20, 'nova/api.py line ');
    fx.editedFile(id, 'nova/api.py', {
      before,
      after: before.map((l, i) => (i === 9 || i === 10 ? `${l} (revised)` : l)), // lines 10-11: an 8-line hunk
      comments: [
        { gerritId: 'c-kept', line: 10, author: REV, message: 'Please use a clearer name here' },
        { gerritId: 'c-own', line: 10, author: OWNER, message: 'Renamed as asked' },
        { gerritId: 'c-bot', line: 11, author: 'p-bot', message: 'Automated: style checked' },
        { gerritId: 'c-ack', line: 9, author: REV, message: 'Done.' },
        { gerritId: 'c-file', line: null, author: REV, message: 'General remark on the file' },
        { gerritId: 'c-parent', line: 10, side: 'PARENT', author: REV, message: 'This was already wrong' },
        { gerritId: 'c-last', patchSet: 3, line: 10, author: REV, message: 'Looks fine now' },
        { gerritId: 'c-far', line: 18, author: REV, message: 'Unrelated line' },
        { gerritId: 'c-tmpl', line: 12, author: REV, message: 'Hint: Trailing whitespace' },
      ],
    });
    fx.comment(id, { gerritId: 'c-msg', path: '/COMMIT_MSG', line: 5, author: REV, message: 'Reword the summary' });
    fx.comment(id, {
      gerritId: 'c-missing',
      path: 'nova/missing.py',
      line: 5,
      author: REV,
      message: 'no diff stored for this',
    });
    fx.comment(id, {
      gerritId: 'c-refused',
      path: 'nova/refused.py',
      line: 5,
      author: REV,
      message: 'the host refused this diff',
    });
    fx.diff(id, 'nova/refused.py', 1, null, 'HTTP 404');
  },
  // Hunks: a pure addition, and an edit too big.
  (fx) => {
    const id = fx.change({ number: 111, created: '2024-12-01T10:00:00Z' });
    const before = numbered(20, 'add line ');
    fx.editedFile(id, 'add.py', { before, after: [...before.slice(0, 10), 'inserted line', ...before.slice(10)] });
    const big = numbered(60, 'big line ');
    fx.editedFile(id, 'big.py', {
      before: big,
      after: big.map((l, i) => (i >= 4 && i < 54 ? `${l} changed` : l)),
      line: 5,
    });
  },
  // Examples.
  (fx) =>
    fx.editedFile(fx.change({ number: 112, created: '2024-12-02T10:00:00Z', kinds: [null, 'TRIVIAL_REBASE'] }), 'r.py'),
  (fx) =>
    fx.editedFile(fx.change({ number: 113, created: '2024-12-03T10:00:00Z' }), 's.py', {
      comments: [
        { gerritId: 'c-sugg', line: 10, author: REV, message: 'Simpler:\n```suggestion\ns.py line 10 (revised)\n```' },
      ],
    }),
  (fx) =>
    fx.editedFile(fx.change({ number: 114, created: '2024-12-04T10:00:00Z' }), 'f.py', {
      comments: [
        { gerritId: 'c-ask', line: 10, author: REV, message: 'Use the helper' },
        { gerritId: 'c-fix', line: 10, author: OWNER, message: 'Fix applied.' },
      ],
    }),
  (fx) =>
    fx.editedFile(fx.change({ number: 115, created: '2024-12-05T10:00:00Z' }), 'n.py', {
      comments: [
        { gerritId: 'c-ack2', line: 10, author: REV, message: 'Ack' },
        { gerritId: 'c-tmpl2', line: 10, author: REV, message: 'Hint: Leading tabs' },
      ],
    }),
  (fx) => {
    fx.editedFile(fx.change({ number: 116, created: '2024-12-06T10:00:00Z' }), 'm.py');
    fx.flag('openstack/116/1/7/m.py', 'confirmed');
  },
  (fx) => {
    fx.editedFile(fx.change({ number: 117, created: '2024-12-07T10:00:00Z', kinds: [null, null] }), 'k.py');
    fx.flag('openstack/117/1/7/k.py', 'open');
  },
  // Duplicates.
  (fx) => fx.editedFile(fx.change({ number: 118, changeKey: 'Isame', created: '2025-01-01T10:00:00Z' }), 'same.py'),
  (fx) => fx.editedFile(fx.change({ number: 119, changeKey: 'Isame', created: '2025-01-02T10:00:00Z' }), 'same.py'),
  (fx) => fx.editedFile(fx.change({ number: 120, created: '2025-02-01T10:00:00Z' }), 'dup.py'),
  (fx) => fx.editedFile(fx.change({ number: 121, created: '2025-02-02T10:00:00Z' }), 'dup.py'),
  (fx) => {
    const before = Array.from({ length: 20 }, (_, i) => long(i + 1));
    fx.editedFile(fx.change({ number: 122, created: '2025-03-01T10:00:00Z' }), 'near.py', { before });
  },
  (fx) => {
    const before = Array.from({ length: 20 }, (_, i) => long(i + 1, i === 7 ? ' extra' : ''));
    fx.editedFile(fx.change({ number: 123, created: '2025-03-02T10:00:00Z' }), 'near.py', { before });
  },
  ...[130, 131, 132, 133, 134].map((n): Step => (fx) => {
    const before = numbered(20, 'Licensed under the Apache License, line ');
    fx.editedFile(fx.change({ number: n, created: `2025-04-0${n - 129}T10:00:00Z` }), `LICENSE-${n}`, {
      before,
      after: before.map((l, i) => (i === 9 ? `${l} v${n}` : l)),
    });
  }),
  // target_in_comment (dev window), outside every window, and byte-exact CRLF / no final newline.
  (fx) => {
    const before = numbered(20, 'calc line ');
    fx.editedFile(fx.change({ number: 140, created: '2025-09-15T10:00:00Z' }), 'calc.py', {
      before,
      after: before.map((l, i) => (i === 9 ? 'return compute_total(values, start=1)' : l)),
      comments: [
        {
          gerritId: 'c-prose',
          line: 10,
          author: REV,
          message: 'Should this be\n  return compute_total(values,  start=1) ?',
        },
      ],
    });
  },
  (fx) => fx.editedFile(fx.change({ number: 150, created: '2026-11-15T10:00:00Z' }), 'late.py'),
  (fx) => {
    const id = fx.change({ number: 160, created: '2024-12-20T10:00:00Z' });
    const before = Array.from({ length: 10 }, (_, i) => `α ${i + 1}\r`);
    const after = [...before.slice(0, 9), 'ω 10'];
    fx.diff(id, 'win.txt', 1, diffOf(before, after, { noNewlineB: true }));
    fx.comment(id, {
      gerritId: 'c-crlf',
      path: 'win.txt',
      line: 10,
      author: REV,
      message: 'Drop the CR on the last line',
    });
  },
  // Followed over time (docs/crawling.md): a change gone from the host keeps its records but is no unit
  // of the build; a comment the host deleted and one written after the merge are no reviewer's comments.
  (fx) => {
    const id = fx.change({ number: 106, created: '2024-10-07T09:00:00Z' });
    fx.editedFile(id, 'gone.py');
    fx.store.run(
      "UPDATE changes SET gone_from_host = '2025-03-02T08:00:00.000Z', gone_reason = 'HTTP 404' WHERE id = ?",
      [id],
    );
  },
  (fx) => {
    const id = fx.change({ number: 107, created: '2024-10-08T09:00:00Z' });
    const c = fx.comment(id, { gerritId: 'c-deleted', path: 'del.py', line: 3, author: REV, message: '' });
    fx.store.run("UPDATE comments SET deleted_on_host = '2025-03-02T08:00:00.000Z' WHERE id = ?", [c]);
  },
  (fx) => {
    // Merged the day before its comment (the fixture's comments are written 2024-10-11 10:00, Gerrit's form).
    const id = fx.change({ number: 108, created: '2024-10-09T09:00:00Z' });
    fx.store.run("UPDATE changes SET submitted = '2024-10-10T10:00:00.000Z' WHERE id = ?", [id]);
    fx.comment(id, { gerritId: 'c-after-merge', path: 'pm.py', line: 3, author: REV, message: 'Nice, thanks.' });
  },
  // A second organization: the same pair as openstack #120 is kept there (dedup is per organization).
  (fx) => fx.editedFile(fx.change({ org: 'qt', number: 201, created: '2025-02-05T10:00:00Z' }), 'dup.py'),
];

export async function populate(
  file: string,
  opts: { reverse?: boolean; config?: CorpusConfig } = {},
): Promise<CorpusFixture> {
  const fx = await CorpusFixture.create(file, opts.config ?? testConfig());
  fx.account('p-bot', true);
  fx.account(REV, false);
  fx.account(OWNER, false);
  for (const step of opts.reverse ? [...STEPS].reverse() : STEPS) step(fx);
  return fx;
}

/** openstack: where each example ends up (rule null: kept), by example key. */
export const EXPECTED_EXAMPLES: Record<string, string | null> = {
  'openstack/110/1/7/nova/api.py': null,
  'openstack/111/1/8/add.py': 'one_sided',
  'openstack/111/1/2/big.py': 'size',
  'openstack/112/1/7/r.py': 'rebase_only',
  'openstack/113/1/7/s.py': 'suggested_edit',
  'openstack/114/1/7/f.py': 'applied_fix',
  'openstack/115/1/7/n.py': 'nothing_left',
  'openstack/116/1/7/m.py': 'manual_flag',
  'openstack/117/1/7/k.py': null,
  'openstack/118/1/7/same.py': null,
  'openstack/119/1/7/same.py': 'same_change',
  'openstack/120/1/7/dup.py': null,
  'openstack/121/1/7/dup.py': 'exact_duplicate',
  'openstack/122/1/7/near.py': null,
  'openstack/123/1/7/near.py': 'near_duplicate',
  'openstack/130/1/7/LICENSE-130': 'boilerplate',
  'openstack/131/1/7/LICENSE-131': 'boilerplate',
  'openstack/132/1/7/LICENSE-132': 'boilerplate',
  'openstack/133/1/7/LICENSE-133': 'boilerplate',
  'openstack/134/1/7/LICENSE-134': 'boilerplate',
  'openstack/140/1/7/calc.py': null,
  'openstack/150/1/7/late.py': null,
  'openstack/160/1/7/win.txt': null,
};

/**
 * openstack: removed units per funnel step, in funnel order. blocklisted_project and protected_overlap
 * need a blocklist and a registered set, which this scenario has not; the sample corpus and
 * test/unit/protect.test.ts plant them.
 */
export const EXPECTED_OPENSTACK_FUNNEL: [string, number | null][] = [
  ['collection/created_before_start', 1],
  ['collection/not_merged', 1],
  ['collection/blocklisted_project', 0],
  ['collection/no_comments', 1],
  ['collection/sealed_window', 1],
  ['collection/disallowed', 1],
  ['collection/fetch_error', 1],
  ['collection/gone_from_host', 1],
  ['comments/deleted_on_host', 1],
  ['comments/pseudo_file', 1],
  ['comments/own_author', 2],
  ['comments/bot_account', 1],
  ['comments/acknowledgement', 2],
  ['comments/no_line', 1],
  ['comments/parent_side', 1],
  ['comments/no_successor', 1],
  ['comments/post_merge_comment', 1],
  ['comments/unchanged_around', 1],
  ['comments/bot_template', 2],
  ['comments/fetch_error', 2],
  // protected_comment is off by default: not counted (protectedComment.test.ts turns it on).
  ['comments/protected_comment', null],
  // irrelevant_comment is off by default: not counted (judgeRule.test.ts turns it on).
  ['comments/irrelevant_comment', null],
  ['hunks/one_sided', 1],
  ['hunks/size', 1],
  ['examples/rebase_only', 1],
  ['examples/suggested_edit', 1],
  ['examples/applied_fix', 1],
  ['examples/nothing_left', 1],
  ['examples/manual_flag', 1],
  ['duplicates/same_change', 1],
  ['duplicates/exact_duplicate', 1],
  ['duplicates/near_duplicate', 1],
  ['duplicates/boilerplate', 5],
  ['decontamination/protected_overlap', 0],
];
