// Requests per built example, on the sample data: our fetch + build against a naive crawler that
// lists the same changes and fetches every change's comments and every commented diff.
//   node bench/run.mjs fetch-requests
// Counts are the fake servers' own request logs (robots.txt included), so nothing is estimated.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { startSampleHosts, type FakeGerrit } from '../test/fake-gerrit/server';
import { sampleConfig, sampleHostSetup, SAMPLE_SALT } from '../scripts/sample-corpus';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import type { CorpusConfig, HostConfig } from '../src/core/ground/config/types';
import { fetchCorpus } from '../src/core/gerrit/fetchCorpus';
import { HostClient } from '../src/core/gerrit/hostClient';
import type { ChangeInfo, CommentInfo } from '../src/core/gerrit/types';
import { runBuild } from '../src/core/build/stages/runBuild';

/** The same client options the sample corpus uses (sample-corpus.ts), for both crawlers. */
const CLIENT = { baseBackoffMs: 5, maxBackoffMs: 20, maxRetries: 1 };
type Kind = 'robots' | 'version' | 'listing' | 'comments' | 'files' | 'diff' | 'other';
type Counts = Record<Kind, number> & { total: number };

function kindOf(p: string): Kind {
  if (p === '/robots.txt') return 'robots';
  if (/^\/changes\/?\?/.test(p)) return 'listing';
  if (/^\/changes\/[^/?]+\/comments(\?|$)/.test(p)) return 'comments';
  if (/\/files\/[^/]+\/diff(\?|$)/.test(p)) return 'diff';
  if (/\/revisions\/[^/]+\/files(\?|$)/.test(p)) return 'files';
  if (p === '/config/server/version') return 'version';
  return 'other';
}

/** What the servers saw since the logs were last cleared, then clears them. */
function takeCounts(hosts: FakeGerrit[]): Counts {
  const counts = { robots: 0, version: 0, listing: 0, comments: 0, files: 0, diff: 0, other: 0, total: 0 };
  for (const h of hosts) {
    for (const r of h.requests) {
      counts[kindOf(r.path)]++;
      counts.total++;
    }
    h.requests.length = 0;
  }
  return counts;
}

/** Our fetch and one build (no confirmed flags), in a temp corpus file. */
async function ours(config: CorpusConfig, dir: string) {
  const store = await CorpusStore.create(path.join(dir, 'corpus.sqlite'));
  try {
    await fetchCorpus(store, config, { salt: SAMPLE_SALT, clientOptions: CLIENT });
    const build = await runBuild(store);
    return { kept: build.kept, diffs: diffUse(store, build.buildId) };
  } finally {
    store.close();
  }
}

/**
 * The naive crawler: the same listing (query, options, paging), then `/comments` for every listed
 * change and one diff for every (file, patch set N) holding any comment where N + 1 exists.
 */
async function naiveHost(host: HostConfig, start: string): Promise<void> {
  const client = new HostClient({ baseUrl: host.url, minIntervalMs: host.minIntervalMs, ...CLIENT });
  try {
    const listed: ChangeInfo[] = [];
    const pageSize = host.pageSize ?? 100;
    const q = encodeURIComponent(`${host.query} after:${start}`);
    for (let offset = 0, more = true; more;) {
      const page = await client.getJson<ChangeInfo[]>(
        `/changes/?q=${q}&o=ALL_REVISIONS&o=DETAILED_ACCOUNTS&n=${pageSize}&S=${offset}`,
      );
      if (!page.ok) throw new Error(`naive crawler: ${page.message}`);
      listed.push(...page.value);
      offset += page.value.length;
      more = page.value.length > 0 && page.value[page.value.length - 1]._more_changes === true;
    }
    for (const change of listed) {
      const comments = await client.getJson<Record<string, CommentInfo[]>>(`/changes/${change._number}/comments`);
      if (!comments.ok) continue;
      const patchSets = new Set(Object.values(change.revisions ?? {}).map((r) => r._number));
      const wanted = new Map<string, { path: string; ps: number }>();
      for (const [file, list] of Object.entries(comments.value)) {
        for (const c of list) {
          if (c.patch_set !== undefined && patchSets.has(c.patch_set + 1))
            wanted.set(`${c.patch_set}\0${file}`, { path: file, ps: c.patch_set });
        }
      }
      for (const d of wanted.values()) {
        await client.getJson(
          `/changes/${change._number}/revisions/${d.ps + 1}/files/${encodeURIComponent(d.path)}/diff?base=${d.ps}&context=ALL&whitespace=IGNORE_NONE`,
        );
      }
    }
  } finally {
    await client.close();
  }
}

/**
 * What became of each diff our fetch stored: never read by the build (no comment on it passes the
 * structural rules), gave a kept example, or was read without giving one — then by the rule set
 * that removed its comments, to show which requests a cheaper pre-filter could have saved.
 */
function diffUse(store: CorpusStore, buildId: number) {
  const rows = store.all<{ id: number; read: number; kept: number; rules: string | null }>(
    `SELECT d.id,
       EXISTS (SELECT 1 FROM comments c WHERE c.change_id = d.change_id AND c.path = d.path AND c.patch_set = d.ps_base
               AND coalesce(c.side, 'REVISION') <> 'PARENT' AND (coalesce(c.line, 0) > 0 OR coalesce(c.start_line, 0) > 0)) AS read,
       EXISTS (SELECT 1 FROM examples e WHERE e.build_id = ? AND e.change_id = d.change_id AND e.path = d.path
               AND e.ps_before = d.ps_base AND e.rule IS NULL) AS kept,
       (SELECT group_concat(rule, ',') FROM (SELECT DISTINCT x.rule AS rule FROM comments c
          JOIN changes ch ON ch.id = c.change_id JOIN hosts h ON h.id = ch.host_id
          JOIN decisions x ON x.build_id = ? AND x.unit = 'comments' AND x.unit_key = h.org || '/' || ch.number || '/' || c.gerrit_id
          WHERE c.change_id = d.change_id AND c.path = d.path AND c.patch_set = d.ps_base ORDER BY rule)) AS rules
     FROM diffs d ORDER BY d.id`,
    [buildId, buildId],
  );
  const notKept = new Map<string, number>();
  for (const r of rows.filter((x) => x.read && !x.kept))
    notKept.set(r.rules ?? '', (notKept.get(r.rules ?? '') ?? 0) + 1);
  return {
    stored: rows.length,
    neverRead: rows.filter((r) => !r.read).length,
    neverReadRules: [...new Set(rows.filter((r) => !r.read).map((r) => r.rules))],
    gaveKept: rows.filter((r) => r.read && r.kept).length,
    readNotKeptByCommentRules: Object.fromEntries([...notKept].sort()),
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rc-bench-requests-'));
  const sample = await startSampleHosts(sampleHostSetup());
  try {
    const config = sampleConfig(sample.hosts);
    takeCounts(sample.hosts);
    const ourRun = await ours(config, dir);
    // A ratio over zero examples means nothing: the build is broken, not the fetch.
    if (ourRun.kept === 0) throw new Error('the build kept no example, so there is no per-example figure');
    const ourCounts = takeCounts(sample.hosts);
    await Promise.all(config.hosts.map((h) => naiveHost(h, config.start)));
    const naiveCounts = takeCounts(sample.hosts);
    const perExample = (n: number) => n / ourRun.kept;
    const result = {
      machine: { cpus: cpus().length, node: process.version },
      keptExamples: ourRun.kept,
      ours: { requests: ourCounts, perExample: perExample(ourCounts.total) },
      naive: { requests: naiveCounts, perExample: perExample(naiveCounts.total) },
      ratioNaiveOverOurs: naiveCounts.total / ourCounts.total,
      ourDiffs: ourRun.diffs,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await sample.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(`fetch-requests: ${e.stack ?? e.message}`);
  process.exit(1);
});
