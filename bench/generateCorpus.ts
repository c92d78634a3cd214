// The plan of the build benchmark's corpus: which changes exist (fetched ones and listing-only ones),
// their patch sets and kinds, their files, and for every example slot (one commented hunk) its size
// and its ROLE: an ordinary hunk, or a planted duplicate of an earlier one. Text comes later
// (generateRecords.ts); the plan alone decides what the build must find.
import { Rng } from './generateText';

export const ORGS = ['openstack', 'qt', 'wikimedia'] as const;
const ORG_WEIGHTS: [number, number][] = [
  [0, 0.5],
  [1, 0.3],
  [2, 0.2],
];
const FIRST_NUMBER = [900_000, 600_000, 1_100_000];

/** Kinds of patch set N + 1 (docs/rules.md, rebase_only); null: Gerrit did not record one. */
const KINDS: [string | null, number][] = [
  ['REWORK', 0.86],
  [null, 0.06],
  ['TRIVIAL_REBASE', 0.04],
  ['NO_CODE_CHANGE', 0.015],
  ['MERGE_FIRST_PARENT_UPDATE', 0.01],
  ['TRIVIAL_REBASE_WITH_MESSAGE_UPDATE', 0.01],
  ['NO_CHANGE', 0.005],
];
export const REBASE_KINDS = new Set([
  'TRIVIAL_REBASE',
  'TRIVIAL_REBASE_WITH_MESSAGE_UPDATE',
  'MERGE_FIRST_PARENT_UPDATE',
  'NO_CODE_CHANGE',
  'NO_CHANGE',
]);

/** Shares of examples (slots) given each planted role, and of listing-only changes per fetched change. */
const SHARE = { exact: 0.045, near: 0.045, crossOrg: 0.003, boilerplate: 0.01, suggestion: 0.005 };
const LISTING_ONLY = { sealed: 0.15, noComments: 0.06, beforeStart: 0.03 };

const DAY = 86_400_000;
const FETCHED_FROM = Date.parse('2024-10-01T00:00:00Z');
const FETCHED_TO = Date.parse('2025-11-01T00:00:00Z'); // pilot, train, dev
const SEALED_TO = Date.parse('2026-11-01T00:00:00Z'); // test (sealed)
const BEFORE_FROM = Date.parse('2024-07-01T00:00:00Z');

/**
 * base: an ordinary hunk (kept); rebase: N + 1 only rebased (rebase_only); suggestion: a comment
 * holds a suggested edit (suggested_edit); exact / near: a copy of `origin` (exact_duplicate /
 * near_duplicate); crossOrg: an exact copy of `origin` in ANOTHER organization (both kept);
 * boilerplate: one of ≥ 5 hunks sharing a before side (all removed as boilerplate).
 */
export type Role = 'base' | 'rebase' | 'suggestion' | 'exact' | 'near' | 'crossOrg' | 'boilerplate';

export interface Slot {
  change: number;
  /** Lines of context before and after the edit, and of the edit on each side. */
  ctxB: number;
  ctxA: number;
  editA: number;
  editB: number;
  role: Role;
  /** The slot copied (exact, near, crossOrg), else -1. */
  origin: number;
  /** The boilerplate group, else -1. */
  group: number;
  /** An exact copy that differs from its origin in whitespace only. */
  whitespace: boolean;
}

export interface FilePlan {
  path: string;
  /** The comments sit on patch set N; the diff is N → N + 1. */
  psN: number;
  slots: number[];
}

export interface ChangePlan {
  org: number;
  number: number;
  created: number;
  /** null: fetched in full; otherwise the collection rule the fetch recorded at listing time. */
  collection: null | 'sealed_window' | 'no_comments' | 'created_before_start';
  /** Kind per patch set (index 0 = patch set 1). */
  kinds: (string | null)[];
  files: FilePlan[];
}

export interface CorpusPlan {
  /** Every change, in creation order. */
  changes: ChangePlan[];
  /** The fetched ones, in creation order: Slot.change indexes this list. */
  fetched: ChangePlan[];
  slots: Slot[];
  /** Slots copied by a later slot: the generator keeps their text. */
  isOrigin: Uint8Array;
  boilerplateGroups: number;
}

const DIRS = ['src', 'lib', 'core', 'server', 'client', 'util', 'net', 'api', 'tests', 'tools', 'gui', 'storage'];
const EXTS = ['java', 'py', 'cc', 'h', 'go', 'ts', 'js', 'cpp', 'rs', 'php', 'qml'];

export function planCorpus(examples: number, rng: Rng): CorpusPlan {
  const slots: Slot[] = [];
  const fetched: ChangePlan[] = [];
  while (slots.length < examples) fetched.push(planChange(rng, slots, fetched.length, examples - slots.length));
  const changes = timeline(rng, fetched);
  const isOrigin = new Uint8Array(slots.length);
  const boilerplateGroups = assignBoilerplate(rng, fetched, slots);
  assignCopies(rng, fetched, slots, isOrigin);
  return { changes, fetched, slots, isOrigin, boilerplateGroups };
}

function planChange(rng: Rng, slots: Slot[], index: number, remaining: number): ChangePlan {
  const patchSets = rng.weighted([
    [2, 0.7],
    [3, 0.22],
    [4, 0.08],
  ]);
  const kinds: (string | null)[] = ['REWORK'];
  for (let ps = 2; ps <= patchSets; ps++) kinds.push(rng.weighted(KINDS));
  const files: FilePlan[] = [];
  const fileCount = rng.weighted([
    [1, 0.5],
    [2, 0.3],
    [3, 0.2],
  ]);
  for (let f = 0; f < fileCount && remaining > 0; f++) {
    const psN = rng.int(1, patchSets - 1);
    const path = `${rng.pick(DIRS)}/${rng.pick(DIRS)}/file_${index}_${f}.${rng.pick(EXTS)}`;
    const count = Math.min(
      remaining,
      rng.weighted([
        [1, 0.75],
        [2, 0.25],
      ]),
    );
    remaining -= count;
    const rebase = REBASE_KINDS.has(kinds[psN] ?? '');
    const file: FilePlan = { path, psN, slots: [] };
    for (let k = 0; k < count; k++) {
      // Only the first region of a file may lack full leading context (it starts the file), only the last trailing.
      const ctxB = k === 0 && rng.chance(0.15) ? rng.int(0, 2) : 3;
      const ctxA = k === count - 1 && rng.chance(0.15) ? rng.int(0, 2) : 3;
      const [editA, editB] = editSizes(rng, ctxB + ctxA);
      file.slots.push(slots.length);
      slots.push({
        change: index,
        ctxB,
        ctxA,
        editA,
        editB,
        role: rebase ? 'rebase' : 'base',
        origin: -1,
        group: -1,
        whitespace: false,
      });
    }
    files.push(file);
  }
  return { org: rng.weighted(ORG_WEIGHTS), number: 0, created: 0, collection: null, kinds, files };
}

/** Hunks of 5 to 40 lines per side, mostly short; the edit grows or shrinks by at most ×5. */
function editSizes(rng: Rng, context: number): [number, number] {
  const lines = 5 + Math.floor(35 * rng.next() ** 1.8);
  const editA = Math.max(1, lines - context);
  const max = Math.min(40 - context, 5 * editA);
  const editB = Math.max(Math.ceil(editA / 5), 1, Math.min(max, editA + rng.int(-3, 3)));
  return [editA, editB];
}

/**
 * All changes in creation order: the fetched ones with no_comments changes among them over
 * pilot..dev, some created before the start, and the sealed test window's, listed only.
 * Change numbers grow with creation time per organization.
 */
function timeline(rng: Rng, fetched: ChangePlan[]): ChangePlan[] {
  const listingOnly = (collection: ChangePlan['collection']): ChangePlan => ({
    org: rng.weighted(ORG_WEIGHTS),
    number: 0,
    created: 0,
    collection,
    kinds: ['REWORK', 'REWORK'],
    files: [],
  });
  const spread = (list: ChangePlan[], from: number, to: number) => {
    const step = (to - from) / list.length;
    list.forEach((c, i) => (c.created = Math.floor(from + (i + rng.next()) * step)));
  };
  const before = Array.from({ length: Math.round(fetched.length * LISTING_ONLY.beforeStart) }, () =>
    listingOnly('created_before_start'),
  );
  let noComments = Math.round(fetched.length * LISTING_ONLY.noComments);
  const main: ChangePlan[] = [];
  for (let f = 0; f < fetched.length || noComments > 0;) {
    const left = fetched.length - f + noComments;
    if (noComments > 0 && rng.next() * left < noComments) {
      main.push(listingOnly('no_comments'));
      noComments--;
    } else {
      main.push(fetched[f++]);
    }
  }
  const sealed = Array.from({ length: Math.round(fetched.length * LISTING_ONLY.sealed) }, () =>
    listingOnly('sealed_window'),
  );
  spread(before, BEFORE_FROM, FETCHED_FROM - DAY);
  spread(main, FETCHED_FROM, FETCHED_TO - DAY);
  spread(sealed, FETCHED_TO, SEALED_TO - DAY);
  const all = [...before, ...main, ...sealed];
  const next = [...FIRST_NUMBER];
  for (const c of all) c.number = next[c.org] += rng.int(1, 4);
  return all;
}

/** Slots that can carry a planted duplicate: not rebased, full context (so they fit anywhere in a file). */
function plantable(s: Slot): boolean {
  return s.role === 'base' && s.ctxB === 3 && s.ctxA === 3;
}

/** Groups of 5 to 8 hunks of one org, in distinct changes, sharing a short before side (a licence header edit). */
function assignBoilerplate(rng: Rng, fetched: ChangePlan[], slots: Slot[]): number {
  const byOrg: number[][] = ORGS.map(() => []);
  slots.forEach((s, i) => {
    if (plantable(s)) byOrg[fetched[s.change].org].push(i);
  });
  let groups = 0;
  for (let budget = Math.round(slots.length * SHARE.boilerplate); budget >= 5;) {
    const org = rng.weighted(ORG_WEIGHTS);
    const pool = byOrg[org];
    const size = rng.int(5, 8);
    const members: number[] = [];
    const used = new Set<number>();
    for (let tries = 0; members.length < size && tries < 50 * size && pool.length > 0; tries++) {
      const at = rng.int(0, pool.length - 1);
      const s = pool[at];
      if (!plantable(slots[s]) || used.has(slots[s].change)) continue;
      members.push(s);
      used.add(slots[s].change);
      pool[at] = pool[pool.length - 1];
      pool.pop();
    }
    if (members.length < 5) break; // too few slots left for a group (tiny corpora)
    const editA = rng.int(2, 3);
    for (const s of members)
      Object.assign(slots[s], { role: 'boilerplate', group: groups, editA, editB: rng.int(2 * editA, 5 * editA) });
    groups++;
    budget -= members.length;
  }
  return groups;
}

/**
 * In creation order, each remaining plantable slot becomes a copy of an EARLIER ordinary slot (so
 * the original is the one kept) or an ordinary slot that later ones may copy. Near copies need long
 * originals: one or two changed tokens must leave Jaccard ≥ 0.9 over 5-token shingles.
 */
function assignCopies(rng: Rng, fetched: ChangePlan[], slots: Slot[], isOrigin: Uint8Array): void {
  const pools = ORGS.map(() => ({ any: [] as number[], long: [] as number[] }));
  const take = (list: number[], change: number): number => {
    for (let tries = 0; tries < 20 && list.length > 0; tries++) {
      const at = rng.int(0, list.length - 1);
      const s = list[at];
      if (isOrigin[s] || slots[s].change === change) continue;
      list[at] = list[list.length - 1];
      list.pop();
      isOrigin[s] = 1;
      return s;
    }
    return -1;
  };
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i];
    if (!plantable(s)) continue;
    const org = fetched[s.change].org;
    const r = rng.next();
    let origin = -1;
    let role: Role = 'base';
    if (r < SHARE.exact) [origin, role] = [take(pools[org].any, s.change), 'exact'];
    else if (r < SHARE.exact + SHARE.near) [origin, role] = [take(pools[org].long, s.change), 'near'];
    else if (r < SHARE.exact + SHARE.near + SHARE.crossOrg)
      [origin, role] = [take(pools[(org + rng.int(1, ORGS.length - 1)) % ORGS.length].any, s.change), 'crossOrg'];
    else if (r < SHARE.exact + SHARE.near + SHARE.crossOrg + SHARE.suggestion) role = 'suggestion';
    if (origin >= 0) {
      Object.assign(s, {
        role,
        origin,
        editA: slots[origin].editA,
        editB: slots[origin].editB,
        whitespace: role === 'exact' && rng.chance(0.3),
      });
    } else if (role === 'suggestion') {
      s.role = 'suggestion';
    } else {
      pools[org].any.push(i);
      if (s.editA + s.editB >= 30) pools[org].long.push(i);
    }
  }
}
