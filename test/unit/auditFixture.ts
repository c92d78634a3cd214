// A hand-built corpus for the label audit: rows inserted as a build writes them (hosts, changes,
// comments, two finished builds with their examples and comment decisions), in a real sql.js file.
// Build 1 keeps 11 examples: openstack train o1–o6, openstack dev o7–o8, qt train q1–q3. Build 2
// removes o1 as suggested_edit (its comment opens a ```suggestion fence) and keeps the rest.
// o2's comment holds its target verbatim (target_in_comment); o3 carries an open flag.
import { exampleKey } from '../../src/core/build/stages/exampleStage';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { testConfig } from './buildFixture';

export interface AuditFixtureExample {
  name: string;
  org: 'openstack' | 'qt';
  window: 'train' | 'dev';
  number: number;
}

export const AUDIT_EXAMPLES: AuditFixtureExample[] = [
  ...[1, 2, 3, 4, 5, 6].map((i) => ({
    name: `o${i}`,
    org: 'openstack' as const,
    window: 'train' as const,
    number: 100 + i,
  })),
  ...[7, 8].map((i) => ({ name: `o${i}`, org: 'openstack' as const, window: 'dev' as const, number: 100 + i })),
  ...[1, 2, 3].map((i) => ({ name: `q${i}`, org: 'qt' as const, window: 'train' as const, number: 200 + i })),
];

export const keyOf = (name: string): string => {
  const e = AUDIT_EXAMPLES.find((x) => x.name === name)!;
  return exampleKey(e.org, e.number, 1, 10, 'src/app.py');
};

const TARGET = 'return compute_total(items, tax=rate)';

export async function buildAuditFixture(file: string): Promise<CorpusStore> {
  const store = await CorpusStore.create(file);
  store.transaction(() => {
    store.setMeta('config', JSON.stringify(testConfig())); // as fetch stores it: the salt's variable is REVIEW_CORPUS_SALT
    store.run(
      "INSERT INTO hosts(id, org, url) VALUES (1, 'openstack', 'https://review.opendev.example'), (2, 'qt', 'https://codereview.qt.example')",
    );
    for (const b of [1, 2]) {
      store.run(
        "INSERT INTO builds(id, config_hash, rules_version, corpus_hash, started_at, finished_at, funnel) VALUES (?, 'cfg', 'rules', 'hash', '2026-11-30T10:00:00Z', '2026-11-30T10:01:00Z', '{}')",
        [b],
      );
    }
    AUDIT_EXAMPLES.forEach((e, i) => {
      const changeId = i + 1;
      store.run(
        "INSERT INTO changes(id, host_id, number, project, created, updated, status) VALUES (?, ?, ?, 'proj', '2025-01-05 10:00:00.000000000', '2025-01-06 10:00:00.000000000', 'MERGED')",
        [changeId, e.org === 'openstack' ? 1 : 2, e.number],
      );
      const message =
        e.name === 'o1'
          ? 'Simpler:\n```suggestion\nreturn total\n```'
          : e.name === 'o2'
            ? `Should this be ${TARGET}?`
            : 'Please handle the empty list here.';
      store.run(
        "INSERT INTO comments(id, change_id, gerrit_id, path, patch_set, side, line, author, message) VALUES (?, ?, ?, 'src/app.py', 1, 'REVISION', 11, 'p_reviewer', ?)",
        [changeId, changeId, `c${changeId}`, message],
      );
      for (const b of [1, 2]) {
        const rule = b === 2 && e.name === 'o1' ? 'suggested_edit' : null;
        store.run(
          `INSERT INTO examples(build_id, example_key, change_id, path, language, ps_before, ps_after, before_start, after_start, before_text, after_text, window, unit, rule)
                   VALUES (?, ?, ?, 'src/app.py', 'python', 1, 2, 10, 10, 'return total\n', ?, ?, 'examples', ?)`,
          [
            b,
            keyOf(e.name),
            changeId,
            e.name === 'o2' ? `${TARGET}\n` : `return total or 0  # ${e.name}\n`,
            e.window,
            rule,
          ],
        );
        const exampleId = Number(
          store.scalar('SELECT id FROM examples WHERE build_id = ? AND example_key = ?', [b, keyOf(e.name)]),
        );
        store.run('INSERT INTO example_comments(example_id, comment_id) VALUES (?, ?)', [exampleId, changeId]);
        store.run(
          "INSERT INTO decisions(build_id, unit, unit_key, unit_id, org, window, stage, rule) VALUES (?, 'comments', ?, ?, ?, ?, 'comments', 'kept')",
          [b, `${e.org}/${e.number}/c${changeId}`, changeId, e.org, e.window],
        );
      }
    });
    store.run(
      `INSERT INTO flags(example_key, reason, detail, status) VALUES (?, 'fix_applied_variant', '{"detail":"Fix applied"}', 'open')`,
      [keyOf('o3')],
    );
  });
  store.save();
  return store;
}
