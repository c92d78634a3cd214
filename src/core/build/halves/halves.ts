// The registered halves of one window (normally train): which half each kept example is in, and the
// report that compares them: sizes, file-suffix mix, the total variation distance between the two
// mixes, and target_in_comment per half.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { HalvesConfig } from '../../ground/config/types';
import { targetInComment, type ExampleRec } from '../stages/exampleStage';
import { canonicalJson, sha256 } from '../../ground/text/canonicalJson';
import type { HalfReport, HalvesReport, MatchedSuffix } from './halvesReport';

export type Half = 'a' | 'b';

/**
 * The matched suffix (`.py` with halves of 715 and 1,248 rows beats `.rst` with 729 and 320): the suffix whose smaller
 * half is largest, so a reading restricted to one suffix keeps the most rows in both halves; ties go
 * to the larger total, then the name.
 */
export function matchedSuffix(a: Record<string, number>, b: Record<string, number>): MatchedSuffix | null {
  let best: MatchedSuffix | null = null;
  for (const suffix of Object.keys(a).sort()) {
    const na = a[suffix];
    const nb = b[suffix] ?? 0;
    if (na === 0 || nb === 0) continue;
    const better =
      !best ||
      Math.min(na, nb) > Math.min(best.a, best.b) ||
      (Math.min(na, nb) === Math.min(best.a, best.b) && na + nb > best.a + best.b);
    if (better) best = { suffix, a: na, b: nb };
  }
  return best;
}

export function halvesDefinitionHash(config: HalvesConfig): string {
  return sha256(canonicalJson(config));
}

export function halfOf(config: HalvesConfig, org: string, changeNumber: number, project: string): Half | null {
  if (config.by === 'projects') {
    if (config.a?.includes(project)) return 'a';
    if (config.b?.includes(project)) return 'b';
    return null;
  }
  const digest = createHash('sha256')
    .update(`${config.salt ?? ''}:${org}/${changeNumber}`)
    .digest();
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
export function assignHalves(
  examples: ExampleRec[],
  config: HalvesConfig,
  minChars?: number,
): Map<string, HalvesReport> {
  const reports = new Map<string, HalvesReport>();
  const definitionSha256 = halvesDefinitionHash(config);
  const empty = (): HalfReport => ({ examples: 0, suffixes: {}, target_in_comment: 0 });
  for (const e of examples) {
    if (e.rule !== null || e.window !== config.window) continue;
    const org = e.change.org;
    let r = reports.get(org);
    if (!r)
      reports.set(
        org,
        (r = {
          window: config.window,
          by: config.by,
          a: empty(),
          b: empty(),
          unassigned: 0,
          suffixTvd: 0,
          definitionSha256,
          matchedSuffix: null,
        }),
      );
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
    if (targetInComment(e, minChars)) h.target_in_comment++;
  }
  for (const r of reports.values()) {
    r.suffixTvd = Math.round(totalVariation(r.a.suffixes, r.b.suffixes) * 1e4) / 1e4;
    r.matchedSuffix = matchedSuffix(r.a.suffixes, r.b.suffixes);
  }
  return reports;
}

/**
 * The per-window file-suffix mix: kept examples of each window by file suffix, per
 * organization (windows with no kept example absent).
 */
export function windowSuffixMix(examples: readonly ExampleRec[]): Map<string, Map<string, Record<string, number>>> {
  const out = new Map<string, Map<string, Record<string, number>>>();
  for (const e of examples) {
    if (e.rule !== null || e.window === null) continue;
    let org = out.get(e.change.org);
    if (!org) out.set(e.change.org, (org = new Map()));
    let mix = org.get(e.window);
    if (!mix) org.set(e.window, (mix = {}));
    const suffix = suffixOf(e.path);
    mix[suffix] = (mix[suffix] ?? 0) + 1;
  }
  return out;
}
