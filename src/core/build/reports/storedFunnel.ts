// A build's funnel as the file recorded it (builds.funnel), read back whole. A build made before the
// tool counted something has no row or counter for it: read as it stands, that count would vanish from
// every view (the table, counts.csv, the card) or be read as 0. Here every rule of the funnel and every
// counter is present in each organization and window, a missing one as null with why ("not counted"),
// so the views need not know which version of the tool made the build. Every reader of a stored funnel
// goes through this.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { FUNNEL } from '../../rules/funnel';
import { NOT_COUNTED } from './funnelNotes';
import { ORG_COUNTERS, WINDOW_COUNTERS, type Counters, type DatasetFunnel, type FunnelRow } from './funnelReport';

/** Build `buildId`'s funnel, complete; a one-line error when the build recorded none or it does not parse. */
export function storedFunnel(store: CorpusStore, buildId: number): DatasetFunnel {
  const funnel = recordedFunnel(store, buildId);
  if (!funnel) throw new UserError(`${store.file}: build ${buildId} recorded no funnel; build again`);
  return funnel;
}

/** As storedFunnel, or undefined when the build recorded no funnel (the caller counts its decisions instead). */
export function recordedFunnel(store: CorpusStore, buildId: number): DatasetFunnel | undefined {
  const text = store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId]);
  if (typeof text !== 'string') return undefined;
  let funnel: unknown;
  try {
    funnel = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${store.file}: build ${buildId}'s funnel is not valid JSON (${(e as Error).message})`);
  }
  if (!isObject(funnel) || !isObject(funnel.organizations))
    throw new UserError(`${store.file}: build ${buildId}'s funnel has no organizations`);
  return completeFunnel(funnel as unknown as DatasetFunnel);
}

/** Fills, in place, every rule row and counter `funnel` lacks with null and why; returns it. */
export function completeFunnel(funnel: DatasetFunnel): DatasetFunnel {
  for (const o of Object.values(funnel.organizations)) {
    o.funnel = completeRows(o.funnel);
    completeCounters(o, ORG_COUNTERS);
    o.windows = isObject(o.windows) ? o.windows : {};
    for (const w of Object.values(o.windows)) {
      w.funnel = completeRows(w.funnel);
      completeCounters(w, WINDOW_COUNTERS);
    }
  }
  return funnel;
}

/** Every rule of FUNNEL, a missing one inserted after the rule before it; rows of rules since retired stay. */
function completeRows(rows: FunnelRow[] | undefined): FunnelRow[] {
  const out = (Array.isArray(rows) ? rows : []).map((r) =>
    r.removed === null || r.removed === undefined
      ? { ...r, removed: null, notCounted: r.notCounted ?? NOT_COUNTED.noReason }
      : r,
  );
  let at = 0;
  for (const step of FUNNEL) {
    const i = out.findIndex((r) => r.stage === step.stage && r.rule === step.rule);
    if (i >= 0) {
      at = i + 1;
      continue;
    }
    out.splice(at++, 0, {
      stage: step.stage,
      rule: step.rule,
      unit: step.unit,
      removed: null,
      notCounted: NOT_COUNTED.notRecorded,
    });
  }
  return out;
}

/** Every counter of `names` present: a missing one null, and every null one with its reason in notCounted. */
function completeCounters(
  holder: { counters: Counters; notCounted?: Record<string, string> },
  names: readonly string[],
): void {
  const counters: Counters = isObject(holder.counters) ? holder.counters : {};
  const notCounted: Record<string, string> = { ...holder.notCounted };
  for (const c of names) {
    if (counters[c] !== undefined) continue;
    counters[c] = null;
    notCounted[c] ??= NOT_COUNTED.notRecorded;
  }
  for (const [c, v] of Object.entries(counters)) if (v === null) notCounted[c] ??= NOT_COUNTED.noReason;
  holder.counters = counters;
  if (Object.keys(notCounted).length) holder.notCounted = notCounted;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
