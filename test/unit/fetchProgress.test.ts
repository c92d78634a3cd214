// A fetch's progress: the one line the CLI's stderr and the extension's notification print, at most once
// a second per host, with the rate and the time left; and totals read from the corpus file, so a fetch
// stopped and run again goes on from the figures it stopped at.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFakeGerrit, type FakeGerrit } from '../fake-gerrit/server';
import { BULK_ORG, bulkFixture } from '../fake-gerrit/bulkFixture';
import { SAMPLE_SALT } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import {
  FetchMeter,
  fetchProgressLine,
  formatBytes,
  formatDuration,
  type HostProgress,
} from '../../src/core/gerrit/fetchProgress';
import { fetchNotification } from '../../src/core/jobs/jobs';
import type { HostClientStats } from '../../src/core/gerrit/hostClientTypes';
import { bulkConfig, runCli, type CliRun } from './support/fetchCli';

const LINE =
  /^bulk: (listing|changes|done), (?:([\d,]+) changes? listed|([\d,]+)\/([\d,]+) changes? fetched \(([\d,]+) listed\)), ([\d,]+) requests?(?: \(([\d,]+)\/min\))?, ([\d.]+ (?:bytes|kB|MB)), ([\d,]+) errors?(, about .+ left|, time left: measuring)?, pace \d+ ms$/;

interface Shown {
  at: number;
  phase: string;
  fetched: number;
  toFetch: number;
  requests: number;
  perMinute: number | undefined;
  bytes: string;
  errors: number;
  left: string | undefined;
}

const num = (s: string | undefined) => (s === undefined ? undefined : Number(s.replace(/,/g, '')));

function progressLines(run: CliRun): Shown[] {
  return run.errLines
    .filter((l) => l.line.startsWith(`${BULK_ORG}: `))
    .map(({ at, line }) => {
      const m = LINE.exec(line);
      assert.ok(m, `a progress line: ${line}`);
      return {
        at,
        phase: m[1],
        fetched: num(m[3]) ?? 0,
        toFetch: num(m[4]) ?? 0,
        requests: num(m[6])!,
        perMinute: num(m[7]),
        bytes: m[8],
        errors: num(m[9])!,
        left: m[10],
      };
    });
}

describe('fetch progress', function () {
  this.timeout(120_000);

  describe('the meter', () => {
    const stats = (): HostClientStats => ({
      requests: 0,
      retries: 0,
      errors: 0,
      disallowed: 0,
      bytes: 0,
      answerMs: 0,
      waitMs: 0,
    });
    const base = (phase: HostProgress['phase'], changesDone: number, requests: number) => ({
      org: 'bulk',
      phase,
      listed: 0,
      changesDone,
      changesTotal: 100,
      requests,
      errors: 0,
      intervalMs: 0,
    });

    it('shows a line at most once a second in a phase, and at once when the phase changes', async () => {
      const store = await CorpusStore.create(path.join(mkdtempSync(path.join(tmpdir(), 'rc-meter-')), 'c.sqlite'));
      try {
        store.run("INSERT INTO hosts(id, org, url) VALUES (1, 'bulk', 'http://127.0.0.1:1')");
        let now = 0;
        const s = stats();
        const meter = new FetchMeter(store, 1, s, 1000, () => now);
        assert.ok(meter.due(base('listing', 0, 1)), 'the first');
        now = 999;
        assert.equal(meter.due(base('listing', 0, 2)), undefined, 'too soon');
        now = 1000;
        assert.ok(meter.due(base('listing', 0, 3)), 'a second later');
        now = 1001;
        assert.ok(meter.due(base('changes', 0, 3)), 'a new phase at once');
        assert.equal(meter.due(base('changes', 1, 5)), undefined);
        // 60 changes and 180 requests a minute, measured from the first line of the phase.
        for (let i = 1; i <= 5; i++) {
          now = 1001 + i * 1000;
          s.requests = 3 + i * 3;
          const p = meter.due(base('changes', i, s.requests));
          assert.ok(p);
          if (i < 3) assert.equal(p.rate, undefined, 'no rate before 3 s');
          else assert.deepEqual(p.rate, { requestsPerMinute: 180, changesPerMinute: 60 });
        }
        now += 1000;
        assert.ok(meter.due(base('done', 5, 18)), 'done shows at once');
        // The client's counters went into the file.
        assert.equal(store.scalar("SELECT value FROM fetch_counters WHERE name = 'requests'"), 18);
      } finally {
        store.close();
      }
    });

    it('words sizes and durations for people', () => {
      assert.equal(formatBytes(999), '999 bytes');
      assert.equal(formatBytes(1_234_567), '1.2 MB');
      assert.equal(formatDuration(400), 'under 1 s');
      assert.equal(formatDuration(45_000), '45 s');
      assert.equal(formatDuration(3_723_000), '1 h 2 min');
      assert.equal(formatDuration(2 * 86_400_000 + 4 * 3_600_000), '2 d 4 h');
      const line = fetchProgressLine({
        ...base('changes', 1, 2),
        totals: { listed: 12_000, fetched: 1_000, pending: 9_000, requests: 3_456, bytes: 2_500_000, errors: 1 },
        rate: { requestsPerMinute: 120, changesPerMinute: 40 },
        etaMs: 225 * 60_000,
      });
      assert.equal(
        line,
        'bulk: changes, 1,000/10,000 changes fetched (12,000 listed), 3,456 requests (120/min), 2.5 MB, 1 error, about 3 h 45 min left, pace 0 ms',
      );
    });

    it("the notification sends every host's latest line, at most once per interval", async () => {
      const sent: { at: number; message: string }[] = [];
      const notify = fetchNotification((message) => sent.push({ at: performance.now(), message }), 100);
      const p = (org: string, requests: number): HostProgress => ({
        ...base('changes', 0, requests),
        org,
        totals: { listed: 1, fetched: 0, pending: 1, requests, bytes: 0, errors: 0 },
      });
      for (let i = 1; i <= 20; i++) {
        notify(p(i % 2 ? 'a' : 'b', i));
        await sleep(10);
      }
      await sleep(150);
      for (let i = 1; i < sent.length; i++) assert.ok(sent[i].at - sent[i - 1].at >= 99, 'spaced');
      assert.ok(sent.length >= 2 && sent.length < 20, `${sent.length} messages for 20 updates`);
      assert.match(sent[sent.length - 1].message, /^a: .*19 requests.* · b: .*20 requests/, 'the last state of both');
    });
  });

  describe('the CLI', () => {
    let host: FakeGerrit;
    let configFile: string;
    const CHANGES = 120;
    before(async () => {
      // Every comments list takes 40 ms: the fetch runs for several seconds, long enough for rates.
      host = await startFakeGerrit({
        org: BULK_ORG,
        fixture: bulkFixture(CHANGES),
        faults: [{ route: /\/comments$/, kind: 'slow', delayMs: 40, times: 1_000_000 }],
      });
      const dir = mkdtempSync(path.join(tmpdir(), 'rc-progress-'));
      configFile = path.join(dir, 'corpus.json');
      writeFileSync(configFile, JSON.stringify(bulkConfig(host.url)));
    });
    after(async () => host?.close());

    it('prints rate and time left at most once a second; stopped and run again, it goes on from its totals', async () => {
      const env = { REVIEW_CORPUS_SALT: SAMPLE_SALT };
      // Stopped (Ctrl-C) once a line shows a rate.
      const first = await runCli(['fetch', '--config', configFile], env, (line, child) => {
        if (/\/min\)/.test(line) && child.exitCode === null) child.kill('SIGINT');
      });
      assert.equal(first.code, 130, first.err);
      const before = progressLines(first);
      for (let i = 1; i < before.length; i++) {
        if (before[i].phase === before[i - 1].phase)
          assert.ok(before[i].at - before[i - 1].at >= 900, `lines ${i - 1} and ${i} apart by a second`);
      }
      const rated = before.find((l) => l.perMinute !== undefined)!;
      assert.ok(rated.perMinute! > 0);
      assert.match(rated.left ?? '', /about .+ left/);

      const store = await CorpusStore.open(path.join(path.dirname(configFile), 'corpus.sqlite'));
      const inFile = {
        fetched: Number(store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'done'")),
        requests: Number(store.scalar("SELECT value FROM fetch_counters WHERE name = 'requests'")),
        bytes: Number(store.scalar("SELECT value FROM fetch_counters WHERE name = 'bytes_received'")),
      };
      store.close();
      assert.ok(inFile.fetched > 0 && inFile.fetched < CHANGES, `stopped midway (${inFile.fetched} fetched)`);
      assert.ok(Math.abs(inFile.requests - host.requests.length) <= 1, 'every request the host saw is counted');
      assert.ok(inFile.fetched >= before[before.length - 1].fetched);

      // A plan of what is left says how many wait.
      const plan = await runCli(['fetch', '--plan', '--config', configFile]);
      assert.match(plan.out, new RegExp(`${CHANGES - inFile.fetched} listed changes waiting to be fetched`));

      host.requests.length = 0;
      const second = await runCli(['fetch', '--config', configFile], env);
      assert.equal(second.code, 0, second.err);
      const after = progressLines(second);
      assert.deepEqual(
        { fetched: after[0].fetched, requests: after[0].requests, bytes: after[0].bytes },
        { fetched: inFile.fetched, requests: inFile.requests, bytes: formatBytes(inFile.bytes) },
        'the rerun starts from the totals in the file, not from zero',
      );
      const last = after[after.length - 1];
      assert.equal(last.phase, 'done');
      assert.equal(last.fetched, CHANGES);
      assert.equal(last.toFetch, CHANGES);
      assert.ok(Math.abs(last.requests - (inFile.requests + host.requests.length)) <= 1);
    });
  });
});
