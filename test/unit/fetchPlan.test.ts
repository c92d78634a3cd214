// `review-corpus fetch --plan` through the real CLI process against loopback fake Gerrit hosts: it
// counts each listing with probes instead of reading it, keeps to the host's pace, writes nothing, and
// goes by the corpus file once there is one.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startFakeGerrit, startSampleHosts, type FakeGerrit } from '../fake-gerrit/server';
import { loadOrgFixture } from '../fake-gerrit/fixtureStore';
import { listChanges } from '../fake-gerrit/listing';
import { BULK_ORG, bulkFixture } from '../fake-gerrit/bulkFixture';
import { sampleConfig, sampleHostSetup, SAMPLE_SALT } from '../../scripts/sample-corpus';
import { CorpusStore } from '../../src/core/ground/store/corpusStore';
import type { CorpusConfig } from '../../src/core/ground/config/types';
import { bulkConfig, CLI, runCli } from './support/fetchCli';
import { blobPackPath } from '../../src/core/ground/store/blobPack';
import { journalPath } from '../../src/core/ground/store/journal';
import { formatBytes } from '../../src/core/gerrit/fetchProgress';

const cli = (args: string[]) => runCli(args, { REVIEW_CORPUS_SALT: SAMPLE_SALT });

/** The lines of one host's block in the plan. */
function block(out: string, org: string): string {
  const start = out.indexOf(`\n${org} (`);
  assert.ok(start >= 0, `a block for ${org} in:\n${out}`);
  const end = out.indexOf('\n\n', start + 1);
  return out.slice(start + 1, end < 0 ? undefined : end);
}

const inRange = (text: string) => Number(/in range: (?:at least )?([\d,]+) changes/.exec(text)?.[1].replace(/,/g, ''));
const probeCount = (text: string) => Number(/counted with (\d+) probes/.exec(text)?.[1]);

function writeConfig(dir: string, config: CorpusConfig): string {
  const file = path.join(dir, 'corpus.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe('fetch --plan', function () {
  this.timeout(120_000);
  let sample: Awaited<ReturnType<typeof startSampleHosts>>;
  let dir: string;
  let configFile: string;
  let config: CorpusConfig;
  const extra: FakeGerrit[] = [];

  before(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    sample = await startSampleHosts(sampleHostSetup());
    dir = mkdtempSync(path.join(tmpdir(), 'rc-plan-'));
    config = sampleConfig(sample.hosts);
    configFile = writeConfig(dir, config);
  });
  after(async () => {
    await sample?.close();
    await Promise.all(extra.map((h) => h.close()));
  });

  it('counts each listing with probes of one change, asks nothing else, and writes nothing', async () => {
    const r = await cli(['fetch', '--plan', '--config', configFile]);
    assert.equal(r.code, 0, r.err);
    assert.equal(existsSync(path.join(dir, 'corpus.sqlite')), false, 'no corpus file');
    assert.match(r.out, /no corpus file yet/);
    for (const host of sample.hosts) {
      const query = config.hosts.find((h) => h.org === host.org)!.query;
      const truth = listChanges(
        loadOrgFixture(host.org).changes,
        new URLSearchParams({ q: `${query} after:${config.start}`, n: '100000' }),
      ).length;
      const text = block(r.out, host.org);
      assert.equal(inRange(text), truth, `${host.org}: ${text}`);
      const paths = host.requests.map((q) => q.path);
      assert.equal(paths[0], '/robots.txt');
      for (const p of paths.slice(1)) assert.match(p, /^\/changes\/\?q=[^&]+&n=1&S=\d+$/, 'only probes, no options');
      assert.equal(probeCount(text), paths.length - 1);
      assert.ok(paths.length - 1 <= 2 * Math.ceil(Math.log2(truth + 2)) + 1, `${paths.length - 1} probes for ${truth}`);
      assert.match(text, /requests: about [\d,]+ = \d+ listing pages? \+ \d+ × 3 per listed change \(prior\)/);
      assert.match(text, /pace 0 ms = the longer of robots.txt's Crawl-delay, 0 ms, and minIntervalMs, 0 ms/);
    }
    assert.match(r.out, /Assumed:\n {2}- requests per change/);
    assert.match(r.out, /plan again after the first hours/);
  });

  it('after a fetch, goes by the corpus file: its requests and bytes per change', async () => {
    const fetched = await cli(['fetch', '--config', configFile, '--quiet']);
    assert.equal(fetched.code, 0, fetched.err);
    for (const h of sample.hosts) h.requests.length = 0;
    const r = await cli(['fetch', '--plan', '--config', configFile]);
    assert.equal(r.code, 0, r.err);
    const store = await CorpusStore.open(path.join(dir, 'corpus.sqlite'));
    try {
      for (const host of sample.hosts) {
        const id = Number(store.scalar('SELECT id FROM hosts WHERE org = ?', [host.org]));
        const fetchedChanges = Number(
          store.scalar('SELECT count(*) FROM changes WHERE host_id = ? AND fetch_attempts > 0', [id]),
        );
        const text = block(r.out, host.org);
        // The fetch's own counters (fetch_counters) give the answer times and our own work.
        assert.match(text, /answer [\d.]+ ms \(observed\)/, text);
        if (fetchedChanges < 20) continue;
        assert.match(text, /per listed change \(observed\)|0 changes to list/, text);
      }
      assert.match(r.out, /now \d+ changes listed, \d+ fetched, [\d.]+ [kM]B on disk/);
      assert.equal(store.scalar("SELECT count(*) FROM fetch_counters WHERE name = 'requests'"), 3);
    } finally {
      store.close();
    }
    for (const host of sample.hosts) {
      assert.ok(host.requests.every((q) => q.path === '/robots.txt' || /&n=1&S=/.test(q.path)));
      assert.ok(!host.requests.some((q) => q.path === '/config/server/version'), 'the version is known already');
    }
  });

  it('asks a large listing for far fewer answers than reading it would take', async () => {
    const changes = 3_000;
    const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(changes) });
    extra.push(host);
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-large-'));
    const r = await cli(['fetch', '--plan', '--config', writeConfig(d, bulkConfig(host.url))]);
    assert.equal(r.code, 0, r.err);
    const text = block(r.out, BULK_ORG);
    assert.equal(inRange(text), changes, text);
    // Reading the listing in the fetch's pages of 10 takes 300 requests; the plan counts it in ~2·log2.
    const listingPages = changes / 10;
    assert.match(text, new RegExp(`= ${listingPages} listing pages \\+ 3,000 × 3 per listed change`));
    const asked = host.requests.length;
    assert.ok(asked <= 2 * Math.ceil(Math.log2(changes + 2)) + 2, `${asked} requests`);
    assert.ok(asked * 10 < listingPages, `${asked} requests against ${listingPages} listing pages`);
    assert.ok(!host.requests.some((q) => /\/comments|\/files|\/diff/.test(q.path)), 'nothing but the listing');
  });

  it('goes by what the corpus observed of the host: requests and bytes per change', async () => {
    const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(40) });
    extra.push(host);
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-observed-'));
    const configFile = writeConfig(d, bulkConfig(host.url));
    const fetched = await cli(['fetch', '--config', configFile, '--quiet']);
    assert.equal(fetched.code, 0, fetched.err);
    const r = await cli(['fetch', '--plan', '--config', configFile]);
    assert.equal(r.code, 0, r.err);
    const text = block(r.out, BULK_ORG);
    // Each bulk change took a comments list, a files list and one diff.
    assert.match(text, / × 3 per listed change \(observed\)/, text);
    const db = path.join(d, 'corpus.sqlite');
    const bytes = [db, blobPackPath(db), journalPath(db)].reduce(
      (n, f) => n + (existsSync(f) ? statSync(f).size : 0),
      0,
    );
    assert.ok(text.includes(`${formatBytes(bytes / 40)} per listed change (observed)`), text);
    assert.doesNotMatch(r.out, /plan again after the first hours/);
  });

  it("keeps to the host's pace: robots.txt's Crawl-delay spaces the probes", async () => {
    const host = await startFakeGerrit({
      org: BULK_ORG,
      fixture: bulkFixture(40),
      robotsTxt: 'User-agent: *\nCrawl-delay: 0.2\n',
    });
    extra.push(host);
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-pace-'));
    const r = await cli(['fetch', '--plan', '--config', writeConfig(d, bulkConfig(host.url))]);
    assert.equal(r.code, 0, r.err);
    const text = block(r.out, BULK_ORG);
    assert.equal(inRange(text), 40);
    assert.match(text, /pace 200 ms = the longer of robots.txt's Crawl-delay, 200 ms, and minIntervalMs, 0 ms/);
    const probes = probeCount(text);
    assert.ok(r.ms >= probes * 200, `${probes} probes after robots.txt took ${r.ms} ms, at least 200 ms apart`);
    // 4 listing pages of 10, then 40 changes at 3 requests each (the prior), robots.txt and the version.
    assert.match(text, /requests: about 126 = 4 listing pages \+ 40 × 3 per listed change \(prior\)/);
  });

  it("goes on with the fetch's page size where the host refuses offsets (Gerrit's index.maxPages)", async () => {
    const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(300), indexMaxPages: 40 });
    extra.push(host);
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-pages-'));
    const r = await cli(['fetch', '--plan', '--config', writeConfig(d, bulkConfig(host.url))]);
    assert.equal(r.code, 0, r.err);
    const text = block(r.out, BULK_ORG);
    assert.equal(inRange(text), 300, text);
    assert.match(text, /probes of 10 changes/);
    assert.ok(
      host.requests.some((q) => q.status === 400 && /&n=1&/.test(q.path)),
      'n=1 was refused',
    );
    assert.ok(!host.requests.some((q) => q.status === 400 && /&n=10&/.test(q.path)), 'n=10 never was');
  });

  it('says where the host stops listing when even the page size is refused', async () => {
    const host = await startFakeGerrit({ org: BULK_ORG, fixture: bulkFixture(300), indexMaxPages: 5 });
    extra.push(host);
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-refused-'));
    const r = await cli(['fetch', '--plan', '--config', writeConfig(d, bulkConfig(host.url))]);
    assert.equal(r.code, 0, r.err);
    const text = block(r.out, BULK_ORG);
    assert.match(text, /in range: at least \d+ changes/);
    const refused = Number(/refused to list from offset ([\d,]+) \(Gerrit's index.maxPages\)/.exec(text)?.[1]);
    // Probes of 1 reach offset 4 (page 5), probes of 10 offset 49: the count is what they saw, no more.
    assert.ok(inRange(text) >= 50 && inRange(text) < 300 && refused > inRange(text), text);
  });

  it('asks nothing of a real host without a contact, as fetch', async () => {
    const d = mkdtempSync(path.join(tmpdir(), 'rc-plan-contact-'));
    const r = await cli(['fetch', '--plan', '--config', writeConfig(d, bulkConfig('https://gerrit.example.invalid'))]);
    assert.equal(r.code, 2);
    assert.match(r.err, /contact is required to fetch https:\/\/gerrit\.example\.invalid/);
    assert.equal(r.out, '');
  });

  it('takes no --seal, --unseal or --wait', async () => {
    const r = await cli(['fetch', '--plan', '--config', configFile, '--seal', 'test']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--plan fetches nothing, so it takes no --seal/);
  });
});
