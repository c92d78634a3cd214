// The label audit on a hand-built corpus (auditFixture.ts) in a real sql.js file: the sample is
// reproducible and stratified, a rater's import is all or nothing, and label-audit-<org>.json holds
// numbers computed by hand here. The CLI runs as users run it (runCli, as cli.test.ts does).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/main';
import {
  auditItems,
  auditSampleHistory,
  currentAuditSample,
  drawAuditSample,
} from '../../src/core/review/labels/auditSample';
import { importRaterLabels, parseRaterLabels, storedRaterName } from '../../src/core/review/labels/importLabels';
import { labelAudit } from '../../src/core/review/labels/labelAudit';
import { localUserPseudonym } from '../../src/core/ground/privacy/localUser';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import { buildAuditFixture, keyOf } from './auditFixture';
import { setQualityLabel } from '../../src/core/build/judgments/judgmentStore';
import { renderQualityAgreement } from '../../src/core/publish/export/cardQualityAgreement';

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { REVIEW_CORPUS_SALT: 'test-salt-not-secret' },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const fresh = async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-audit-'));
  const file = path.join(dir, 'corpus.sqlite');
  (await buildAuditFixture(file)).close();
  return { dir, file };
};

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('label audit: the sample', () => {
  it('gives the same items for the same seed and build, in two files, and others for another seed', async () => {
    const draw = async (seed: string) => {
      const { file } = await fresh();
      const store = await CorpusStore.open(file);
      const s = store.transaction(() => drawAuditSample(store, { buildId: 1, size: 5, seed, at: 't' }));
      const keys = auditItems(store, s.id).map((i) => i.exampleKey);
      store.close();
      return { s, keys };
    };
    const a = await draw('seed-1');
    const b = await draw('seed-1');
    assert.deepEqual(b.keys, a.keys);
    assert.equal(b.s.itemsSha256, a.s.itemsSha256);
    const others = await Promise.all(['seed-2', 'seed-3', 'seed-4'].map(draw));
    assert.ok(
      others.some((o) => o.s.itemsSha256 !== a.s.itemsSha256),
      'another seed draws other items',
    );
  });

  it('allocates by organization × window in proportion and draws that many from each', async () => {
    const { file } = await fresh();
    const store = await CorpusStore.open(file);
    const s = store.transaction(() => drawAuditSample(store, { buildId: 1, size: 5, seed: 's', at: 't' }));
    // Kept: openstack dev 2, openstack train 6, qt train 3 (N 11); size 5 → 1, 3, 1 (allocate's test has the arithmetic).
    assert.deepEqual(s.strata, [
      { org: 'openstack', window: 'dev', population: 2, drawn: 1 },
      { org: 'openstack', window: 'train', population: 6, drawn: 3 },
      { org: 'qt', window: 'train', population: 3, drawn: 1 },
    ]);
    const items = auditItems(store, s.id);
    assert.equal(items.length, 5);
    assert.deepEqual(
      items.map((i) => i.position),
      [0, 1, 2, 3, 4],
    );
    for (const st of s.strata)
      assert.equal(items.filter((i) => i.org === st.org && i.window === st.window).length, st.drawn);
    store.close();
  });

  it('refuses a second draw unless asked, and keeps the first on record', async () => {
    const { file } = await fresh();
    const store = await CorpusStore.open(file);
    store.transaction(() => drawAuditSample(store, { buildId: 1, size: 5, seed: 's', at: 't1' }));
    assert.throws(
      () => store.transaction(() => drawAuditSample(store, { buildId: 1, size: 5, seed: 'other', at: 't2' })),
      /sample 1 is drawn already .*--redraw/,
    );
    const again = store.transaction(() =>
      drawAuditSample(store, { buildId: 1, size: 11, seed: 'other', redraw: true, at: 't2' }),
    );
    assert.equal(currentAuditSample(store)!.id, again.id);
    assert.deepEqual(
      auditSampleHistory(store).map((h) => [h.id, h.seed, h.drawnAt]),
      [
        [1, 's', 't1'],
        [2, 'other', 't2'],
      ],
    );
    assert.equal(auditItems(store, 1).length, 5, 'the first draw stays whole');
    store.close();
  });
});

describe('label audit: importing a rater', () => {
  it('names the line and the culprit of a bad line', () => {
    const bad: [string, RegExp][] = [
      ['{"example_key":"a","label":"answers"}\nnot json\n', /f\.jsonl: line 2: not valid JSON/],
      [
        '{"example_key":"a","label":"valid"}\n',
        /f\.jsonl: line 1: label "valid" is not one of answers, does_not, unsure/,
      ],
      ['{"example_key":"a","label":"answers","why":"x"}\n', /f\.jsonl: line 1: "why" is not a known field/],
      ['{"label":"answers"}\n', /f\.jsonl: line 1: "example_key" is required/],
      [
        '{"example_key":"a","label":"answers"}\n\n{"example_key":"a","label":"unsure"}\n',
        /f\.jsonl: line 3: example_key "a" is labelled twice \(first on line 1\)/,
      ],
      ['["a","answers"]\n', /f\.jsonl: line 1: a line must be a JSON object/],
      ['\n', /f\.jsonl: holds no label/],
    ];
    for (const [text, re] of bad) assert.throws(() => parseRaterLabels(text, 'f.jsonl'), re, text);
  });

  it('writes nothing when one line names no example of the file', async () => {
    const { dir, file } = await fresh();
    // The corpus file and anything the store keeps beside it under its name.
    const snapshot = () =>
      readdirSync(dir)
        .filter((f) => f.startsWith(path.basename(file)))
        .sort()
        .map((f) => [f, readFileSync(path.join(dir, f)).toString('base64')]);
    const before = snapshot();
    const labels = path.join(dir, 'labels.jsonl');
    writeFileSync(
      labels,
      jsonl([
        { example_key: keyOf('o1'), label: 'answers' },
        { example_key: 'openstack/999/1/1/x.py', label: 'answers' },
      ]),
    );
    const r = await cli('labels', 'import', '--db', file, '--rater', 'gpt-4o-2024-08-06', '--model', labels);
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      `review-corpus: ${labels}: line 2: example_key "openstack/999/1/1/x.py" is no example of ${file}`,
    );
    assert.deepEqual(snapshot(), before, 'the corpus file is as it was');
    const store = await CorpusStore.open(file);
    assert.equal(store.scalar('SELECT count(*) FROM labels'), 0);
    assert.equal(store.scalar('SELECT count(*) FROM label_raters'), 0);
    store.close();
  });

  it('stores a human rater only as a pseudonym, a model rater by its model id', () => {
    const salt = () => 'test-salt-not-secret';
    assert.equal(storedRaterName('r_0123456789abcdef', 'human', salt), 'r_0123456789abcdef');
    assert.equal(
      storedRaterName('alice@example.org', 'human', salt),
      localUserPseudonym('test-salt-not-secret', 'alice@example.org'),
    );
    assert.equal(
      storedRaterName('meta-llama/Llama-3.1-70B-Instruct', 'model', salt),
      'meta-llama/Llama-3.1-70B-Instruct',
    );
    assert.throws(
      () => storedRaterName('alice@example.org', 'model', salt),
      /looks like an e-mail address, not a model id/,
    );
    assert.throws(() => storedRaterName('r_0123456789abcdef', 'model', salt), /human rater's pseudonym/);
    assert.throws(() => storedRaterName('two words', 'human', salt), /without spaces/);
  });

  it("keeps a rater's kind: a model cannot later be imported as a human", async () => {
    const { file } = await fresh();
    const store = await CorpusStore.open(file);
    const one = parseRaterLabels(jsonl([{ example_key: keyOf('o1'), label: 'answers' }]), 'f');
    store.transaction(() => importRaterLabels(store, 'gpt-x', 'model', one, 'f', 't'));
    assert.throws(
      () => store.transaction(() => importRaterLabels(store, 'gpt-x', 'human', one, 'f', 't')),
      /recorded as a model rater/,
    );
    store.close();
  });
});

describe('label audit: label-audit-<org>.json', function () {
  this.timeout(30_000);
  // The whole of build 1's kept set (11) is the sample. On openstack's 8 items:
  // model gpt-x: answers o1–o6, does_not o7 o8 → 6/8 = 0.75 valid;
  // human r_…: answers o1–o5, does_not o6 o7, unsure o8 → 5/8 = 0.625 valid;
  // κ: 7/15 (the hand computation in labels.test.ts: pairs (a,a)×5, (a,d), (d,d), (d,u)).
  // Build 2 removes o1 (suggested_edit): on its 7 kept items gpt-x 5/7, the human 4/7.
  const MODEL = [
    ['o1', 'answers'],
    ['o2', 'answers'],
    ['o3', 'answers'],
    ['o4', 'answers'],
    ['o5', 'answers'],
    ['o6', 'answers'],
    ['o7', 'does_not'],
    ['o8', 'does_not'],
    ['q1', 'answers'],
  ];
  const HUMAN = [
    ['o1', 'answers'],
    ['o2', 'answers'],
    ['o3', 'answers'],
    ['o4', 'answers'],
    ['o5', 'answers'],
    ['o6', 'does_not'],
    ['o7', 'does_not'],
    ['o8', 'unsure'],
  ];
  let dir: string;
  let file: string;
  let human: string;

  before(async () => {
    ({ dir, file } = await fresh());
    const drawn = await cli('audit', 'sample', '--db', file, '--build', '1', '--size', '383', '--seed', 'audit-2026');
    assert.equal(drawn.code, 0, drawn.err);
    assert.match(
      drawn.out,
      /^drew audit sample 1: 11 of 11 kept examples of build 1, seed "audit-2026", sha256 [0-9a-f]{64}$/m,
    );
    const write = (name: string, rows: string[][]) => {
      const f = path.join(dir, name);
      writeFileSync(f, jsonl(rows.map(([n, label]) => ({ example_key: keyOf(n), label }))));
      return f;
    };
    const m = await cli('labels', 'import', '--db', file, '--rater', 'gpt-x', '--model', write('model.jsonl', MODEL));
    assert.equal(m.code, 0, m.err);
    assert.equal(m.out, 'imported 9 labels of model rater gpt-x: 9 new, 0 changed, 0 as before');
    const h = await cli('labels', 'import', '--db', file, '--rater', 'annotator-1', write('human.jsonl', HUMAN));
    assert.equal(h.code, 0, h.err);
    human = localUserPseudonym('test-salt-not-secret', 'annotator-1');
    assert.match(h.out, new RegExp(`of human rater ${human} \\(the pseudonym of the name given\\)`));
  });

  it('holds the shares, κ, the kept set of build 2 and the cross-tabs', async () => {
    const r = await cli('audit', 'report', '--db', file, '--build', '2', '--out', dir);
    assert.equal(r.code, 0, r.err);
    const o = JSON.parse(readFileSync(path.join(dir, 'label-audit-openstack.json'), 'utf8'));
    assert.equal(o.items, 8);
    assert.equal(o.scored, 8);
    assert.deepEqual(o.raters, [
      { rater: 'gpt-x', kind: 'model', scored: 8, answers: 6, does_not: 2, unsure: 0, valid_share: 0.75 },
      { rater: human, kind: 'human', scored: 8, answers: 5, does_not: 2, unsure: 1, valid_share: 0.625 },
    ]);
    assert.equal(o.agreement.length, 1);
    assert.ok(Math.abs(o.agreement[0].kappa - 7 / 15) < 1e-12);
    assert.equal(o.agreement[0].both, 8);
    assert.equal(o.kept_set.build, 2);
    assert.equal(o.kept_set.items, 7);
    assert.deepEqual(
      o.kept_set.raters.map((t: { answers: number; scored: number }) => [t.answers, t.scored]),
      [
        [5, 7],
        [4, 7],
      ],
    );
    const row = (by: string, value: string) =>
      o.cross_tab.find((c: { by: string; value: string }) => c.by === by && c.value === value);
    assert.deepEqual(
      row('rule', 'kept').raters.map((x: { valid: number }) => x.valid),
      [5, 4],
    );
    assert.deepEqual(row('rule', 'suggested_edit'), {
      by: 'rule',
      value: 'suggested_edit',
      items: 1,
      scored: 1,
      raters: [
        { rater: 'gpt-x', scored: 1, valid: 1 },
        { rater: human, scored: 1, valid: 1 },
      ],
    });
    assert.equal(row('flag', 'suggested_edit').items, 1);
    assert.equal(row('flag', 'target_in_comment').items, 1);
    assert.equal(row('flag', 'open_flag').items, 1);
    assert.equal(
      o.summary[0],
      `1 of the audit's 8 scored items build 2 removes as suggested_edit; raters called 1 (gpt-x) and 1 (${human}) of them valid.`,
    );
    assert.equal(
      o.summary[1],
      `1 of the audit's 8 scored items carry a suggested edit; raters called 1 (gpt-x) and 1 (${human}) of them valid.`,
    );
    assert.equal(
      o.summary[4],
      `On the 7 items build 2 keeps, the valid shares: gpt-x 0.750 (8) to 0.714 (7) and ${human} 0.625 (8) to 0.571 (7).`,
    );
    // qt: the model labelled q1 of the 3, the human none.
    const q = JSON.parse(readFileSync(path.join(dir, 'label-audit-qt.json'), 'utf8'));
    assert.equal(q.items, 3);
    assert.equal(q.scored, 1);
    assert.deepEqual(
      q.raters.map((t: { rater: string; valid_share: number }) => [t.rater, t.valid_share]),
      [['gpt-x', 1]],
    );
    assert.deepEqual(q.agreement, []);
  });

  it("gives Fleiss' κ and Krippendorff's α among all raters, per window, with seeded intervals", async () => {
    const r = await cli('audit', 'report', '--db', file, '--build', '2', '--out', dir);
    assert.equal(r.code, 0, r.err);
    const o = JSON.parse(readFileSync(path.join(dir, 'label-audit-openstack.json'), 'utf8'));
    const a = o.rater_agreement;
    assert.deepEqual(a.values, ['answers', 'does_not', 'unsure']);
    assert.deepEqual(a.bootstrap, {
      resamples: 1000,
      method: 'percentile, items drawn with replacement',
      seed: 'audit-2026',
    });
    assert.deepEqual(
      a.scopes.map((s: { all_windows: boolean; window: string | null; items: number }) => [
        s.all_windows,
        s.window,
        s.items,
      ]),
      [
        [true, null, 8],
        [false, 'dev', 2],
        [false, 'train', 6],
      ],
    );
    const group = (scope: number, g: string) => a.scopes[scope].groups.find((x: { raters: string }) => x.raters === g);
    // One human and one model: neither kind alone has a pair.
    assert.equal(group(0, 'humans').rater_count, 1);
    assert.equal(group(0, 'humans').fleiss_kappa.value, null);
    assert.equal(group(0, 'humans').fleiss_kappa.interval, null);
    // Both together, all windows: pairs (a,a)×5, (a,d), (d,d), (d,u). Totals a 11, d 4, u 1 of 16.
    // P̄ = 6/8, P̄e = 138/256: κ = (6/8 − 138/256) / (118/256) = 27/59. α = 1 − 15·4/118 = 29/59.
    // κ_answers = 1 − (1/8)(1·1/2) / ((11/16)(5/16)) = 39/55.
    const all = group(0, 'all');
    assert.equal(all.rater_count, 2);
    assert.equal(all.items, 8);
    const near = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} ≠ ${y}`);
    near(all.fleiss_kappa.value, 27 / 59);
    near(all.alpha.nominal.value, 29 / 59);
    near(all.per_value[0].fleiss_kappa.value, 39 / 55);
    assert.equal(all.per_value[0].value, 'answers');
    for (const f of [all.fleiss_kappa, all.alpha.nominal, ...all.per_value.map((v: { alpha: unknown }) => v.alpha)]) {
      if (f.value === null) continue;
      assert.ok(f.interval.low <= f.value && f.value <= f.interval.high, JSON.stringify(f));
      assert.ok(f.interval.resamples > 0 && f.interval.resamples <= 1000);
    }
    // Per window: train (a,a)×5, (a,d) → κ = (5/6 − 122/144) / (22/144) = −1/11; dev (d,d), (d,u) → −1/3.
    near(group(2, 'all').fleiss_kappa.value, -1 / 11);
    near(group(1, 'all').fleiss_kappa.value, -1 / 3);
    assert.match(
      r.out,
      /^openstack: all windows, all raters \(2, 8 items rated twice or more\): Fleiss' κ 0\.458 \(-?\d\.\d{3} to \d\.\d{3}\), Krippendorff's α 0\.492 \(.+\); κ per label: answers 0\.709 \(.+\), does_not .+, unsure .+$/m,
    );
    // Seeded: the same file gives the same intervals.
    const again = await cli('audit', 'report', '--db', file, '--build', '2', '--out', dir);
    assert.equal(again.out, r.out);
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'label-audit-openstack.json'), 'utf8')), o);
  });

  it('counts a rater who did not label an item as a missing rating, humans and models apart', async () => {
    const copy = path.join(dir, 'four-raters.sqlite');
    copyCorpus(file, copy);
    const write = (name: string, rows: string[][]) => {
      const f = path.join(dir, name);
      writeFileSync(f, jsonl(rows.map(([n, label]) => ({ example_key: keyOf(n), label }))));
      return f;
    };
    const second = [
      ['o1', 'answers'],
      ['o2', 'does_not'],
      ['o3', 'answers'],
      ['o6', 'does_not'],
      ['o8', 'unsure'],
    ];
    const secondModel = [...MODEL.slice(0, 6), ['o7', 'answers'], ['o8', 'does_not']];
    assert.equal(
      (await cli('labels', 'import', '--db', copy, '--rater', 'annotator-2', write('h2.jsonl', second))).code,
      0,
    );
    const gy = await cli(
      'labels',
      'import',
      '--db',
      copy,
      '--rater',
      'gpt-y',
      '--model',
      write('gy.jsonl', secondModel),
    );
    assert.equal(gy.code, 0, gy.err);
    const out = mkdtempSync(path.join(tmpdir(), 'rc-audit-four-'));
    const r = await cli('audit', 'report', '--db', copy, '--build', '2', '--out', out);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(readFileSync(path.join(out, 'label-audit-openstack.json'), 'utf8')).rater_agreement;
    const group = (g: string) => a.scopes[0].groups.find((x: { raters: string }) => x.raters === g);
    const near = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} ≠ ${y}`);
    // Humans: annotator-2 left o4, o5 and o7 unlabelled; the pairs are o1 (a,a), o2 (a,d), o3 (a,a),
    // o6 (d,d), o8 (u,u). P̄ = 4/5, totals a 5, d 3, u 2 of 10, P̄e = 0.38: κ = 0.42/0.62 = 21/31;
    // α = 1 − 9·2/62 = 22/31.
    assert.equal(group('humans').rater_count, 2);
    assert.equal(group('humans').items, 5);
    near(group('humans').fleiss_kappa.value, 21 / 31);
    near(group('humans').alpha.nominal.value, 22 / 31);
    // Models: gpt-x and gpt-y differ on o7 only. P̄ = 7/8, totals a 13, d 3: κ = (224 − 178)/(256 − 178) = 23/39.
    assert.equal(group('models').items, 8);
    near(group('models').fleiss_kappa.value, 23 / 39);
    assert.equal(group('all').rater_count, 4);
    assert.equal(group('all').items, 8);
    assert.match(r.out, /^openstack: all windows, human raters \(2, 5 items rated twice or more\): Fleiss' κ 0\.677 /m);
    assert.match(r.out, /^openstack: window dev, model raters \(2, 2 items rated twice or more\)/m);
  });

  it('writes quality-agreement.json and prints its lines once two raters rated comment quality, and the card states them', async () => {
    const copy = path.join(dir, 'quality-raters.sqlite');
    copyCorpus(file, copy);
    const store = await CorpusStore.open(copy);
    const answer = (civility: 'Civil' | 'Uncivil', relevance: number) => ({
      type: ['Bugfix' as const],
      nature: ['Prescriptive' as const],
      civility,
      relevance,
      clarity: 7,
      conciseness: 7,
    });
    // Two hand raters on three comments (the second did not rate the third): civility C/C, U/C, C/-.
    const rate = (rater: string, key: string, a: ReturnType<typeof answer>) =>
      setQualityLabel(store, { commentKey: key, rater, answer: a, labelledAt: '2026-01-01T00:00:00Z' });
    rate('r_aaaaaaaaaaaaaaaa', 'openstack/101/c1', answer('Civil', 8));
    rate('r_aaaaaaaaaaaaaaaa', 'openstack/102/c2', answer('Uncivil', 2));
    rate('r_aaaaaaaaaaaaaaaa', 'openstack/103/c3', answer('Civil', 5));
    rate('r_bbbbbbbbbbbbbbbb', 'openstack/101/c1', answer('Civil', 7));
    rate('r_bbbbbbbbbbbbbbbb', 'openstack/102/c2', answer('Civil', 3));
    store.save();
    store.close();
    const out = mkdtempSync(path.join(tmpdir(), 'rc-audit-quality-'));
    const r = await cli('audit', 'report', '--db', copy, '--build', '2', '--out', out);
    assert.equal(r.code, 0, r.err);
    const q = JSON.parse(readFileSync(path.join(out, 'quality-agreement.json'), 'utf8'));
    const civility = q.scopes[0].labels.find((l: { label: string }) => l.label === 'civility');
    const humans = civility.groups.find((g: { raters: string }) => g.raters === 'humans');
    assert.equal(humans.rater_count, 2);
    assert.equal(humans.items, 2);
    // [Civil, Uncivil]: c1 (2, 0), c2 (1, 1): P̄ = 1/2, p = 3/4, 1/4, P̄e = 10/16: κ = (8 − 10)/(16 − 10) = −1/3.
    assert.ok(Math.abs(humans.fleiss_kappa.value - -1 / 3) < 1e-12, String(humans.fleiss_kappa.value));
    assert.match(
      r.out,
      /^comment quality, all windows, civility, human raters \(2, 2 comments rated twice or more\): Fleiss' κ -0\.333/m,
    );
    assert.match(r.out, /^comment quality, all windows, relevance, human raters .+, ordinal α .+, interval α .+$/m);
    assert.match(r.out, /wrote .+quality-agreement\.json$/m);
    const lines: string[] = [];
    renderQualityAgreement(q, (...l) => lines.push(...l));
    const card = lines.join('\n');
    assert.match(card, /^## Comment-quality agreement$/m);
    assert.match(card, /^\| civility \| human \(2\) \| 2 \| -0\.333 \(/m);
    // Without two raters of comment quality, no file and no section.
    const bare = mkdtempSync(path.join(tmpdir(), 'rc-audit-no-quality-'));
    const none = await cli('audit', 'report', '--db', file, '--build', '2', '--out', bare);
    assert.equal(none.code, 0, none.err);
    assert.ok(!readdirSync(bare).includes('quality-agreement.json'));
    assert.doesNotMatch(none.out, /comment quality/);
  });

  it("exports the sample's items in order, the same for every rater", async () => {
    const out = path.join(dir, 'items.jsonl');
    const r = await cli('audit', 'export', '--db', file, '--out', out);
    assert.equal(r.code, 0, r.err);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const store = await CorpusStore.open(file);
    assert.deepEqual(
      lines.map((l) => l.example_key),
      auditItems(store, 1).map((i) => i.exampleKey),
    );
    store.close();
    assert.deepEqual(
      Object.keys(lines[0]).sort(),
      [
        'after',
        'before',
        'change',
        'comments',
        'example_key',
        'language',
        'org',
        'path',
        'position',
        'project',
        'ps_after',
        'ps_before',
        'window',
      ].sort(),
    );
    assert.ok(!JSON.stringify(lines).includes('p_reviewer'), 'no author pseudonym goes to raters');
  });

  it('is a report of the same numbers when the same corpus is re-read (no state outside the file)', async () => {
    const copy = path.join(dir, 'copy.sqlite');
    copyCorpus(file, copy);
    const store = await CorpusStore.open(copy);
    const a = labelAudit(store, 2)!;
    assert.equal(a.organizations.find((x) => x.org === 'openstack')!.raters[0].valid_share, 0.75);
    store.close();
  });

  it('reads the items from the latest build once a rebuild pruned the one the sample was drawn from', async () => {
    const copy = path.join(dir, 'pruned.sqlite');
    copyCorpus(file, copy);
    const store = await CorpusStore.open(copy);
    // What writeBuild does to an untagged earlier build.
    store.run('DELETE FROM example_comments WHERE example_id IN (SELECT id FROM examples WHERE build_id = 1)');
    store.run('DELETE FROM examples WHERE build_id = 1');
    store.save();
    store.close();
    const out = path.join(dir, 'pruned-items.jsonl');
    const r = await cli('audit', 'export', '--db', copy, '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 11);
    const reopened = await CorpusStore.open(copy);
    const o = labelAudit(reopened, 2)!.organizations.find((x) => x.org === 'openstack')!;
    assert.equal(
      o.cross_tab.find((c) => c.by === 'flag' && c.value === 'suggested_edit')!.items,
      1,
      "read from build 2's rows",
    );
    reopened.close();
  });

  it('says how to draw a sample when none is drawn, and that a subcommand is needed', async () => {
    const other = await fresh();
    const r = await cli('audit', 'report', '--db', other.file, '--out', other.dir);
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      `review-corpus: ${other.file}: no audit sample drawn; run review-corpus audit sample --db ${other.file} --seed <seed>`,
    );
    const bare = await cli('audit');
    assert.equal(bare.code, 2);
    assert.equal(bare.err, 'review-corpus: audit needs a subcommand: audit sample, audit export, audit report');
    const help = await cli('help', 'audit', 'sample');
    assert.equal(help.code, 0);
    assert.match(help.out, /^usage: review-corpus audit sample --db <file>/);
  });
});
