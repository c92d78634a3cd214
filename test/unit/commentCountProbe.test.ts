// The comment-count probe (seed 000, Qt), over loopback HTTP: before a listing's total_comment_count
// 0 is trusted, comments are fetched for a seeded sample of such changes. A truthful host's probe
// holds and the changes stay skipped; a host whose index lists 0 for a change with comments (the fake's
// staleCommentCounts, as real Gerrit does from a stale index entry: fake-gerrit/README.md) fails it,
// and every change is fetched without the shortcut. The probe is recorded once and kept on resume.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ChangeSpec } from '../fake-gerrit/fixtures/dsl';
import { buildOrgFixture } from '../fake-gerrit/fixtures/buildFixture';
import { startFakeGerrit } from '../fake-gerrit/server';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { validateCorpusConfig } from '../../src/core/rules/corpusJson/loadConfig';
import { PRODUCT_WINDOWS } from '../../src/core/ground/config/types';
import { fetchCorpus } from '../../src/core/gerrit/fetchCorpus';
import type { HostClientEvent } from '../../src/core/gerrit/hostClientTypes';
import { seededSample } from '../../src/core/gerrit/commentCountProbe';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { funnelTable } from '../../src/core/publish/export/funnelTable';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';

const module = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${name}_value_${i + 1} = compute_${name}(${i + 1})`).join('\n') + '\n';
const text = module('probe', 12);
const answered = text.replace('probe_value_6 = compute_probe(6)', 'probe_value_6 = 6');
const base = { project: 'openstack/nova', owner: 'alice_fx', patchSets: [{}, {}] };
/** Four changes without comments, and two with an inline comment each. */
const SPECS: ChangeSpec[] = [
  ...[960001, 960002, 960003, 960004].map((number, i) => ({
    ...base,
    number,
    subject: `quiet ${i}`,
    created: `2025-01-0${i + 2} 10:00:00`,
    files: { 'q.py': [null, text, answered] },
    comments: [],
  })),
  ...[960005, 960006].map((number, i) => ({
    ...base,
    number,
    subject: `talked ${i}`,
    created: `2025-01-1${i} 10:00:00`,
    files: { 'p.py': [null, text, answered] },
    comments: [{ id: `pr_${number}`, path: 'p.py', ps: 1, line: 6, author: 'bruno_fx', message: 'Write the 6 out.' }],
  })),
];

async function fetchHost(opts: {
  stale?: number[];
  probe?: { sample?: number; seed?: number };
  abortOn?: RegExp;
  file?: string;
}) {
  const host = await startFakeGerrit({
    org: 'openstack',
    fixture: buildOrgFixture('openstack', SPECS),
    staleCommentCounts: opts.stale,
  });
  const file = opts.file ?? path.join(mkdtempSync(path.join(tmpdir(), 'rc-probe-')), 'corpus.sqlite');
  const store = opts.file ? await CorpusStore.open(file) : await CorpusStore.create(file);
  const config = validateCorpusConfig(
    {
      name: 'probe',
      db: 'corpus.sqlite',
      start: '2024-10-01',
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: PRODUCT_WINDOWS.map((w) => ({ ...w })),
      hosts: [{ org: 'openstack', url: host.url, minIntervalMs: 0, ...(opts.probe ? { probe: opts.probe } : {}) }],
    },
    'probe corpus.json',
  );
  const events: HostClientEvent[] = [];
  const abort = new AbortController();
  let aborted = false;
  try {
    await fetchCorpus(store, config, {
      salt: SAMPLE_SALT,
      signal: abort.signal,
      checkpointEveryMs: 0,
      clientOptions: { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 },
      onEvent: (e) => {
        events.push(e);
        if (opts.abortOn && e.type === 'request' && opts.abortOn.test(e.path)) abort.abort(new Error('killed'));
      },
    });
  } catch (e) {
    if (!abort.signal.aborted) throw e;
    aborted = true;
  }
  return { host, store, file, events, aborted, paths: host.requests.map((r) => r.path) };
}

const probeRow = (store: CorpusStore) =>
  store.get<Record<string, unknown>>(
    'SELECT sample, seed, candidates, probed, with_comments, unreadable, result, sampled, with_comments_changes, probed_at FROM comment_count_probes',
  );
const comments = (paths: string[], n: number) => paths.filter((p) => p === `/changes/${n}/comments`).length;

describe('the comment-count probe, over loopback HTTP', function () {
  this.timeout(60_000);

  it('holds on a truthful host: the sample is read once, nothing else is fetched for those changes, and no_comments counts them', async () => {
    const { host, store, paths, events } = await fetchHost({});
    try {
      const row = probeRow(store)!;
      assert.deepEqual(
        { ...row, probed_at: typeof row.probed_at },
        {
          sample: 50,
          seed: 20241001,
          candidates: 4,
          probed: 4,
          with_comments: 0,
          unreadable: 0,
          result: 'held',
          sampled: JSON.stringify(seededSample([960001, 960002, 960003, 960004], 50, 20241001)),
          with_comments_changes: '[]',
          probed_at: 'string',
        },
      );
      for (const n of [960001, 960002, 960003, 960004]) {
        assert.equal(comments(paths, n), 1, `${n}: its comments are read once, by the probe`);
        assert.deepEqual(
          paths.filter((p) => p.startsWith(`/changes/${n}/revisions`)),
          [],
          `${n}: nothing else is asked`,
        );
      }
      // The probe goes through the host's one client, after robots.txt set its pace (gerritHostClientPace.test.ts tests the pace itself).
      const probeEvents = events.filter(
        (e) => e.type === 'request' && /^\/changes\/96000[1-4]\/comments$/.test(e.path),
      );
      assert.equal(probeEvents.length, 4, 'each probe request is one the paced client sent');
      assert.ok(
        events.findIndex((e) => e.type === 'pace') < events.indexOf(probeEvents[0]),
        'the pace was set before the probe',
      );

      const build = await runBuild(store, { hunkFactsWorker: false });
      const org = build.funnel.organizations.openstack;
      const noComments = org.funnel.find((r) => r.rule === 'no_comments')!;
      assert.equal(noComments.removed, 4);
      assert.equal(noComments.notCounted, undefined);
      assert.equal(org.probe?.text, 'probe held: 0 of 4 had comments');
      assert.match(funnelTable(build.funnel), /comment-count probe: probe held: 0 of 4 had comments/);
    } finally {
      store.close();
      await host.close();
    }
  });

  it('fails on a host that lists 0 for a change with comments: every change is fetched without the shortcut, and no_comments is not counted', async () => {
    const { host, store, paths } = await fetchHost({ stale: [960006] });
    try {
      const row = probeRow(store)!;
      assert.deepEqual(
        [row.candidates, row.probed, row.with_comments, row.result, row.with_comments_changes],
        [5, 5, 1, 'failed', '[960006]'],
      );
      for (const n of [960001, 960002, 960003, 960004])
        assert.equal(comments(paths, n), 2, `${n}: read by the probe, then fetched like any change`);
      assert.ok(
        paths.some((p) => p.startsWith('/changes/960006/revisions/2/files')),
        'the change the count hid is fetched whole',
      );
      assert.equal(store.scalar("SELECT count(*) FROM changes WHERE collection_rule = 'no_comments'"), 0);

      const build = await runBuild(store, { hunkFactsWorker: false });
      const org = build.funnel.organizations.openstack;
      const noComments = org.funnel.find((r) => r.rule === 'no_comments')!;
      assert.equal(noComments.removed, null, 'not counted, never 0');
      assert.equal(
        noComments.notCounted,
        'probe failed: 1 of 5 had comments; fetched without the shortcut, so no change was skipped for its count',
      );
      for (const w of Object.values(org.windows))
        assert.equal(w.funnel.find((r) => r.rule === 'no_comments')?.removed, null);
      assert.equal(
        store.scalar(
          'SELECT count(*) FROM examples e JOIN changes c ON c.id = e.change_id WHERE c.number = 960006 AND e.build_id = ?',
          [build.buildId],
        ),
        1,
        "the hidden change is built into an example (a duplicate of 960005's here)",
      );
      const table = funnelTable(build.funnel);
      assert.match(table, /no_comments +changes +not counted\n/);
      assert.match(table, /not counted: no_comments: probe failed: 1 of 5 had comments; fetched without the shortcut/);
    } finally {
      store.close();
      await host.close();
    }
  });

  it('draws the configured sample with its seed: the same draw every time, and never more than asked', async () => {
    const { host, store, paths } = await fetchHost({ probe: { sample: 2, seed: 7 } });
    try {
      const drawn = seededSample([960004, 960002, 960001, 960003], 2, 7);
      assert.deepEqual(
        drawn,
        seededSample([960001, 960002, 960003, 960004], 2, 7),
        'the draw depends on the set, not the listing order',
      );
      const row = probeRow(store)!;
      assert.deepEqual(
        [row.sample, row.seed, row.candidates, row.probed, row.result, row.sampled],
        [2, 7, 4, 2, 'held', JSON.stringify(drawn)],
      );
      assert.deepEqual(
        [960001, 960002, 960003, 960004].filter((n) => comments(paths, n) > 0),
        [...drawn].sort(),
      );
    } finally {
      store.close();
      await host.close();
    }
    assert.equal(seededSample([1, 2, 3], 10, 1).length, 3, 'a sample larger than the candidates takes them all');
  });

  it('keeps the recorded probe when a fetch stopped after it resumes: nothing is probed again', async () => {
    // Stopped at the first request after the probe (a diff), with every step already saved (checkpoint 0).
    const first = await fetchHost({ stale: [960006], abortOn: /\/revisions\// });
    assert.ok(first.aborted, 'the first fetch was stopped');
    const recorded = probeRow(first.store);
    first.store.close();
    await first.host.close();
    assert.equal(recorded?.result, 'failed');

    const again = await fetchHost({ stale: [960006], file: first.file });
    try {
      assert.deepEqual(probeRow(again.store), recorded, 'the same probe, at the same time');
      for (const n of [960001, 960002, 960003, 960004]) {
        assert.ok(comments(again.paths, n) <= 1, `${n}: the resumed run does not probe it again`);
        assert.equal(
          comments(first.paths, n) + comments(again.paths, n),
          2,
          `${n}: read by the probe once and fetched once, over both runs`,
        );
      }
      assert.equal(again.store.scalar("SELECT count(*) FROM changes WHERE fetch_state != 'done'"), 0);
    } finally {
      again.store.close();
      await again.host.close();
    }
  });
});
