// The label audit's sample: kept examples of one build, stratified by organization × window with
// proportional allocation, drawn by a seed so the same seed and build give the same items. It is
// stored whole (parameters, strata, items in order, their SHA-256, the time), so a human and model
// raters label the same items, and a re-draw is a new, recorded row rather than an overwrite.
import { createHash } from 'node:crypto';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';

/** The default audit size: 383 is the sample for a share's 95% interval of ±5 points on a large population. */
export const DEFAULT_AUDIT_SIZE = 383;

export interface Stratum {
  org: string;
  window: string | null;
  /** Kept examples of the build in this stratum. */
  population: number;
  /** How many of them the sample holds. */
  drawn: number;
}

export interface AuditSample {
  id: number;
  buildId: number;
  /** The size asked for; the sample holds min(size, population). */
  size: number;
  seed: string;
  strata: Stratum[];
  items: number;
  itemsSha256: string;
  drawnAt: string;
}

export interface AuditItem {
  position: number;
  exampleKey: string;
  org: string;
  window: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** An example's place in the seed's random order: independent of row order, so the draw is reproducible. */
export const rankOf = (seed: string, exampleKey: string) => sha256(`${seed}\n${exampleKey}`);

/**
 * Proportional allocation by largest remainder (Hamilton): each stratum gets floor(size·Nᵢ/N), and the
 * seats left go one each to the largest remainders (size·Nᵢ mod N, exact integers), ties to the larger
 * stratum and then to the earlier one. The allocations sum to min(size, N) and never exceed Nᵢ.
 */
export function allocate(populations: readonly number[], size: number): number[] {
  const total = populations.reduce((a, b) => a + b, 0);
  if (size >= total) return [...populations];
  const base = populations.map((n) => Math.floor((size * n) / total));
  let left = size - base.reduce((a, b) => a + b, 0);
  const order = populations
    .map((_, i) => i)
    .sort(
      (a, b) =>
        ((size * populations[b]) % total) - ((size * populations[a]) % total) ||
        populations[b] - populations[a] ||
        a - b,
    );
  for (const i of order) {
    if (left === 0) break;
    base[i]++;
    left--;
  }
  return base;
}

export function checkAuditParameters(size: number, seed: string): void {
  if (!Number.isInteger(size) || size < 1)
    throw new UserError(`audit sample: --size ${size}: a whole number of examples, 1 or more`);
  if (seed.trim() === '')
    throw new UserError('audit sample: --seed is empty: give the seed the sample is drawn with (it is recorded)');
}

/**
 * Draws and stores a sample of the kept examples of `buildId`. With a sample already drawn, only
 * `redraw` draws another (the earlier one stays in the file as the record). Call inside a transaction.
 */
export function drawAuditSample(
  store: CorpusStore,
  opts: { buildId: number; size: number; seed: string; redraw?: boolean; at?: string },
): AuditSample {
  checkAuditParameters(opts.size, opts.seed);
  const built = store.scalar('SELECT count(*) FROM builds WHERE id = ? AND finished_at IS NOT NULL', [opts.buildId]);
  if (Number(built) === 0)
    throw new UserError(`audit sample: build ${opts.buildId} is not a finished build of ${store.file}`);
  const current = currentAuditSample(store);
  if (current && !opts.redraw) {
    throw new UserError(
      `audit sample: sample ${current.id} is drawn already (${current.items} items of build ${current.buildId}, seed "${current.seed}", ${current.drawnAt}); --redraw draws another and keeps that one on record`,
    );
  }
  const byStratum = new Map<string, { org: string; window: string | null; keys: string[] }>();
  store.each(
    `SELECT e.example_key, e.window, h.org FROM examples e JOIN changes c ON c.id = e.change_id JOIN hosts h ON h.id = c.host_id
     WHERE e.build_id = ? AND e.rule IS NULL`,
    [opts.buildId],
    (r) => {
      const window = r.window === null ? null : String(r.window);
      const id = JSON.stringify([String(r.org), window]);
      if (!byStratum.has(id)) byStratum.set(id, { org: String(r.org), window, keys: [] });
      byStratum.get(id)!.keys.push(String(r.example_key));
    },
  );
  // Strata by organization, then window (examples outside every window last), so the allocation's ties fall the same way every time.
  const strata = [...byStratum.values()].sort(
    (a, b) => cmp(a.org, b.org) || cmp(a.window ?? '\uffff', b.window ?? '\uffff'),
  );
  if (strata.length === 0) throw new UserError(`audit sample: build ${opts.buildId} keeps no example to sample`);
  const drawn = allocate(
    strata.map((s) => s.keys.length),
    opts.size,
  );
  const chosen: { key: string; rank: string; org: string; window: string | null }[] = [];
  strata.forEach((s, i) => {
    const ranked = s.keys
      .map((key) => ({ key, rank: rankOf(opts.seed, key), org: s.org, window: s.window }))
      .sort((a, b) => cmp(a.rank, b.rank));
    chosen.push(...ranked.slice(0, drawn[i]));
  });
  // Raters see the items in the seed's order across strata, not one organization after another.
  chosen.sort((a, b) => cmp(a.rank, b.rank));
  const itemsSha256 = sha256(chosen.map((c) => c.key).join('\n'));
  const at = opts.at ?? new Date().toISOString();
  const strataRecord: Stratum[] = strata.map((s, i) => ({
    org: s.org,
    window: s.window,
    population: s.keys.length,
    drawn: drawn[i],
  }));
  store.run(
    'INSERT INTO audit_samples(build_id, size, seed, strata, items_sha256, drawn_at) VALUES (?, ?, ?, ?, ?, ?)',
    [opts.buildId, opts.size, opts.seed, JSON.stringify(strataRecord), itemsSha256, at],
  );
  const id = Number(store.scalar('SELECT max(id) FROM audit_samples'));
  chosen.forEach((c, position) =>
    store.run('INSERT INTO audit_items(sample_id, position, example_key, org, window) VALUES (?, ?, ?, ?, ?)', [
      id,
      position,
      c.key,
      c.org,
      c.window,
    ]),
  );
  return {
    id,
    buildId: opts.buildId,
    size: opts.size,
    seed: opts.seed,
    strata: strataRecord,
    items: chosen.length,
    itemsSha256,
    drawnAt: at,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The latest draw, or undefined when none was drawn. */
export function currentAuditSample(store: CorpusStore): AuditSample | undefined {
  const r = store.get<{
    id: number;
    build_id: number;
    size: number;
    seed: string;
    strata: string;
    items_sha256: string;
    drawn_at: string;
  }>('SELECT id, build_id, size, seed, strata, items_sha256, drawn_at FROM audit_samples ORDER BY id DESC LIMIT 1');
  if (!r) return undefined;
  const items = Number(store.scalar('SELECT count(*) FROM audit_items WHERE sample_id = ?', [r.id]));
  return {
    id: r.id,
    buildId: r.build_id,
    size: r.size,
    seed: r.seed,
    strata: JSON.parse(r.strata) as Stratum[],
    items,
    itemsSha256: r.items_sha256,
    drawnAt: r.drawn_at,
  };
}

/** Every draw, oldest first: the record of re-draws. */
export function auditSampleHistory(
  store: CorpusStore,
): { id: number; buildId: number; size: number; seed: string; itemsSha256: string; drawnAt: string }[] {
  return store
    .all<{ id: number; build_id: number; size: number; seed: string; items_sha256: string; drawn_at: string }>(
      'SELECT id, build_id, size, seed, items_sha256, drawn_at FROM audit_samples ORDER BY id',
    )
    .map((r) => ({
      id: r.id,
      buildId: r.build_id,
      size: r.size,
      seed: r.seed,
      itemsSha256: r.items_sha256,
      drawnAt: r.drawn_at,
    }));
}

export function auditItems(store: CorpusStore, sampleId: number): AuditItem[] {
  return store
    .all<{ position: number; example_key: string; org: string; window: string | null }>(
      'SELECT position, example_key, org, window FROM audit_items WHERE sample_id = ? ORDER BY position',
      [sampleId],
    )
    .map((r) => ({ position: r.position, exampleKey: r.example_key, org: r.org, window: r.window }));
}
