// A fetch plan as text: the CLI prints these lines, and "Plan Fetch…" shows them as a document.
import path from 'node:path';
import { counted, formatBytes, formatDuration } from './fetchProgress';
import { MIN_OBSERVED, PLAN_PRIORS, type FetchPlan, type HostPlan, type Sourced } from './fetchPlan';

const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** Three significant digits below 100 (2.71, 9.2, 0), whole numbers above. */
const rate = (n: number) => (n >= 100 ? count(n) : String(Number(n.toPrecision(3))));
const ms = (n: number) => `${rate(n)} ms`;
const from = (s: Sourced) =>
  s.source === 'observed' ? 'observed' : s.source === 'probes' ? "median of this plan's probes" : 'prior';

export function planLines(plan: FetchPlan, corpusName: string): string[] {
  const c = plan.corpus;
  const lines = [
    `Plan for the next fetch of "${corpusName}" into ${path.basename(c.file)}` +
      (c.exists
        ? ` (now ${count(c.listed)} changes listed, ${count(c.fetched)} fetched, ${formatBytes(c.bytes)} on disk)`
        : ' (no corpus file yet)'),
  ];
  for (const h of plan.hosts) lines.push('', ...hostLines(h));
  const planned = plan.hosts.filter((h) => h.error === undefined);
  if (planned.length > 1) {
    const slowest = Math.max(...planned.map((h) => h.timeMs));
    const requests = planned.reduce((n, h) => n + h.requests, 0);
    const bytes = planned.reduce((n, h) => n + h.bytes, 0);
    lines.push(
      '',
      `All ${planned.length} hosts, fetched side by side: about ${formatDuration(slowest)} (the slowest host), ${counted(requests, 'request')}, ${formatBytes(bytes)}.`,
    );
  }
  lines.push(
    '',
    'Assumed:',
    ...assumptions(plan).flatMap((a) => wrap(a, 96).map((l, i) => `${i ? '    ' : '  - '}${l}`)),
  );
  return lines;
}

function hostLines(h: HostPlan): string[] {
  const head = `${h.org} (${h.url})`;
  if (h.error !== undefined || !h.count)
    return [head, `  not planned: ${h.error ?? 'the listing could not be counted'}`];
  const n = h.count;
  const lines = [
    head,
    `  in range: ${n.refusedFrom === undefined ? '' : 'at least '}${counted(n.changes, 'change')} (query "${h.query}"), counted with ${counted(n.probes, 'probe')} of ${counted(n.probeSize, 'change')}`,
  ];
  if (n.refusedFrom !== undefined)
    lines.push(
      `  the host refused to list from offset ${count(n.refusedFrom)} (Gerrit's index.maxPages): the fetch's listing will stop there or before`,
    );
  const listing =
    h.listingFrom.phase === 'changes'
      ? 'listing finished'
      : `${counted(h.toList, 'change')} to list in ${counted(h.listingPages, 'page')} of ${h.pageSize}` +
        (h.listingFrom.offset > 0 ? ` (the listing goes on from offset ${count(h.listingFrom.offset)})` : '');
  lines.push(`  to do: ${listing}; ${counted(h.pending, 'listed change')} waiting to be fetched`);
  const parts = [`${counted(h.listingPages, 'listing page')}`];
  if (h.relistPages > 0)
    parts.push(`${counted(h.relistPages, 're-list page')} (changes gone from the host, docs/crawling.md)`);
  if (h.toList > 0)
    parts.push(
      `${count(h.toList)} × ${rate(h.requestsPerListed.value)} per listed change (${from(h.requestsPerListed)})`,
    );
  if (h.pending > 0)
    parts.push(
      `${count(h.pending)} × ${rate(h.requestsPerFetched.value)} per waiting change (${from(h.requestsPerFetched)})`,
    );
  lines.push(`  requests: about ${count(h.requests)} = ${parts.join(' + ')} + robots.txt and the server's version`);
  lines.push(`  time: about ${formatDuration(h.timeMs)} = ${count(h.requests)} requests × ${ms(h.msPerRequest)}`);
  lines.push(
    `    per request: answer ${ms(h.answerMs.value)} (${from(h.answerMs)}) + the longer of the pace, ${ms(h.pace.intervalMs)}, ` +
      `and our own work, ${ms(h.ownWorkMs.value)} (${from(h.ownWorkMs)})`,
  );
  lines.push(
    `    pace ${ms(h.pace.intervalMs)} = the longer of robots.txt's Crawl-delay, ${ms(h.pace.crawlDelayMs)}, and minIntervalMs, ${ms(h.pace.minIntervalMs)}`,
  );
  const disk = [
    h.toList > 0
      ? `${count(h.toList)} × ${formatBytes(h.bytesPerListed.value)} per listed change (${from(h.bytesPerListed)})`
      : '',
    h.pending > 0
      ? `${count(h.pending)} × ${formatBytes(h.bytesPerFetched.value)} per waiting change (${from(h.bytesPerFetched)})`
      : '',
  ].filter(Boolean);
  lines.push(`  disk: about ${formatBytes(h.bytes)} more${disk.length ? ` = ${disk.join(' + ')}` : ''}`);
  lines.push(`  asked of the host for this plan: ${counted(h.asked, 'request')}, robots.txt included`);
  return lines;
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). Ours: four lines, no dependency. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

function assumptions(plan: FetchPlan): string[] {
  const hosts = plan.hosts.filter((h) => h.error === undefined);
  const any = (f: (h: HostPlan) => boolean) => hosts.some(f);
  const out = [
    `requests per change (observed): what the stored records of the host's fetched changes took, one comments list per fetch and each files list and diff; retries are not counted. For a host with fewer than ${MIN_OBSERVED} fetched changes: ${PLAN_PRIORS.requestsPerListedChange} per listed change (prior: a comments list, a files list and a diff, one commented file in one patch-set pair; real changes often need more)`,
    `time: each request waits for its answer, then for the pace or our own work, whichever is longer; hosts are fetched side by side. Answer times and our own work come from the host's earlier fetches (observed), else the answers from this plan's probes (a listing page or a whole-file diff takes longer than a probe of one change) and ${PLAN_PRIORS.ownWorkMsPerRequest} ms of our own work (prior)`,
    `disk (observed): the corpus file as it stands (database, blob pack and journal, builds included) per listed change and per fetched change; with fewer than ${MIN_OBSERVED} fetched changes: ${formatBytes(PLAN_PRIORS.bytesPerListedChange)} per listed change (prior: a generated corpus at realistic file lengths, docs/crawling.md)`,
    'the count is of the listing now: changes updated while the fetch runs join it, and changes a failed fetch retries are not counted',
  ];
  if (any((h) => h.requestsPerListed.source === 'prior' || h.bytesPerListed.source === 'prior'))
    out.push(
      'where a figure says prior, plan again after the first hours of the fetch: it then goes by your own corpus',
    );
  return out;
}
