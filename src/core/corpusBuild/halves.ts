// The registered halves of one window (normally train): which half each kept example is in, and the
// report that compares them: sizes, file-suffix mix, the total variation distance between the two
// mixes, and target_in_comment per half.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { HalvesConfig } from '../config/types';
import { targetInComment, type ExampleRec } from './exampleStage';

export type Half = 'a' | 'b';

export interface HalfReport {
  examples: number;
  /** File suffix (".py", or the file name when it has none) → examples. */
  suffixes: Record<string, number>;
  target_in_comment: number;
}

export interface HalvesReport {
  window: string;
  by: 'projects' | 'hash';
  a: HalfReport;
  b: HalfReport;
  /** Kept examples of the window in neither half (a project on neither list). */
  unassigned: number;
  /** Total variation distance between the two halves' suffix mixes, 0 to 1. */
  suffixTvd: number;
}

export function halfOf(config: HalvesConfig, org: string, changeNumber: number, project: string): Half | null {
  if (config.by === 'projects') {
    if (config.a?.includes(project)) return 'a';
    if (config.b?.includes(project)) return 'b';
    return null;
  }
  const digest = createHash('sha256').update(`${config.salt ?? ''}:${org}/${changeNumber}`).digest();
  return (digest[0] & 1) === 0 ? 'a' : 'b';
}

export function suffixOf(filePath: string): string {
  return path.posix.extname(filePath) || path.posix.basename(filePath);
}

export function totalVariation(a: Record<string, number>, b: Record<string, number>): number {
  const na = Object.values(a).reduce((x, y) => x + y, 0);
  const nb = Object.values(b).reduce((x, y) => x + y, 0);
  if (na === 0 || nb === 0) return na === nb ? 0 : 1;
  let sum = 0;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) sum += Math.abs((a[k] ?? 0) / na - (b[k] ?? 0) / nb);
  return sum / 2;
}

/** Assigns `half` to the kept examples of the halves window and reports per organization. */
export function assignHalves(examples: ExampleRec[], config: HalvesConfig): Map<string, HalvesReport> {
  const reports = new Map<string, HalvesReport>();
  const empty = (): HalfReport => ({ examples: 0, suffixes: {}, target_in_comment: 0 });
  for (const e of examples) {
    if (e.rule !== null || e.window !== config.window) continue;
    const org = e.change.org;
    let r = reports.get(org);
    if (!r) reports.set(org, (r = { window: config.window, by: config.by, a: empty(), b: empty(), unassigned: 0, suffixTvd: 0 }));
    const half = halfOf(config, org, e.change.number, e.change.project);
    e.half = half;
    if (!half) {
      r.unassigned++;
      continue;
    }
    const h = r[half];
    h.examples++;
    const suffix = suffixOf(e.path);
    h.suffixes[suffix] = (h.suffixes[suffix] ?? 0) + 1;
    if (targetInComment(e)) h.target_in_comment++;
  }
  for (const r of reports.values()) r.suffixTvd = Math.round(totalVariation(r.a.suffixes, r.b.suffixes) * 1e4) / 1e4;
  return reports;
}
