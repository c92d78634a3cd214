// Registered halves (seed 001), recorded like a sealed window: `review-corpus halves register` fixes,
// per organization, the split definition's hash, the time, the size floor (the smaller half's size),
// the suffix-mix ceiling and the matched suffix, read from the latest build. Every later build is
// checked against them (checkHalves) and says pass or fail. Re-registering is explicit (replace) and
// recorded in halves_events.
//
// The ceiling is the total variation distance measured at registration, not a config value: seed 001
// fixes it that way ("differ by a total variation of 0.3187, which becomes the language-mix ceiling"),
// so a later build whose halves drift further apart fails, and the number cannot be tuned in the
// config after a reading without a recorded re-registration.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { storedFunnel } from '../reports/storedFunnel';
import type { HalvesReport } from './halvesReport';
import type { HalvesCheck } from '../reports/sharesTypes';

export type { HalvesCheck } from '../reports/sharesTypes';

export interface HalvesRegistration {
  org: string;
  window: string;
  definition_sha256: string;
  registered_at: string;
  build_id: number;
  size_floor: number;
  suffix_tvd_ceiling: number;
  matched_suffix: string | null;
}

export function registeredHalves(store: CorpusStore): HalvesRegistration[] {
  return store.all<HalvesRegistration>(
    'SELECT org, window, definition_sha256, registered_at, build_id, size_floor, suffix_tvd_ceiling, matched_suffix FROM halves_registrations ORDER BY org',
  );
}

const n = (x: number) => x.toLocaleString('en-US');

/** This build's halves of `reg.org` (undefined: it has none) against the registered criteria. */
export function checkHalves(reg: HalvesRegistration, report: HalvesReport | undefined): HalvesCheck {
  const failures: string[] = [];
  if (!report)
    failures.push(
      `this build has no halves of window "${reg.window}" (none in the config, or no kept example in the window)`,
    );
  else {
    if (report.definitionSha256 !== reg.definition_sha256) {
      failures.push(
        `the split definition changed: sha256 ${reg.definition_sha256.slice(0, 12)}… registered, ${report.definitionSha256.slice(0, 12)}… now`,
      );
    }
    for (const half of ['a', 'b'] as const) {
      if (report[half].examples < reg.size_floor)
        failures.push(
          `half ${half} holds ${n(report[half].examples)} examples, below the size floor ${n(reg.size_floor)}`,
        );
    }
    if (report.suffixTvd > reg.suffix_tvd_ceiling)
      failures.push(
        `the suffix mixes differ by a total variation of ${report.suffixTvd}, above the ceiling ${reg.suffix_tvd_ceiling}`,
      );
    const now = report.matchedSuffix?.suffix ?? null;
    if (now !== reg.matched_suffix)
      failures.push(`the matched suffix is ${now ?? 'none'}, registered ${reg.matched_suffix ?? 'none'}`);
  }
  return {
    registered: {
      window: reg.window,
      definitionSha256: reg.definition_sha256,
      registeredAt: reg.registered_at,
      build: reg.build_id,
      sizeFloor: reg.size_floor,
      suffixTvdCeiling: reg.suffix_tvd_ceiling,
      matchedSuffix: reg.matched_suffix,
    },
    pass: failures.length === 0,
    failures,
  };
}

/**
 * Registers the halves of the latest build (or `buildId`), one row per organization that has them.
 * An organization registered already is replaced only with `replace` (recorded as 'replaced');
 * otherwise a one-line error. Call inside a transaction.
 */
export function registerHalves(
  store: CorpusStore,
  opts: { window?: string; replace?: boolean; at?: string; buildId?: number } = {},
): HalvesRegistration[] {
  const at = opts.at ?? new Date().toISOString();
  const buildId =
    opts.buildId ?? Number(store.scalar('SELECT max(id) FROM builds WHERE finished_at IS NOT NULL') ?? NaN);
  if (!Number.isFinite(buildId)) throw new UserError(`${store.file}: no build yet; build before registering halves`);
  const funnel = storedFunnel(store, buildId);
  const withHalves = Object.entries(funnel.organizations).filter(([, o]) => o.halves);
  if (withHalves.length === 0)
    throw new UserError(
      `halves register: build ${buildId} has no halves (the corpus config defines none, or no kept example is in their window)`,
    );
  const window = withHalves[0][1].halves!.window;
  if (opts.window !== undefined && opts.window !== window)
    throw new UserError(`halves register: --window ${opts.window}: build ${buildId} splits window "${window}"`);
  const existing = new Map(registeredHalves(store).map((r) => [r.org, r]));
  if (!opts.replace) {
    const first = withHalves.map(([org]) => existing.get(org)).find((r) => r);
    if (first)
      throw new UserError(
        `halves register: ${first.org}'s halves are registered already (${first.registered_at}, size floor ${n(first.size_floor)}); --replace replaces them, and the replacement is recorded`,
      );
  }
  const out: HalvesRegistration[] = [];
  for (const [org, o] of withHalves) {
    const h = o.halves!;
    const reg: HalvesRegistration = {
      org,
      window: h.window,
      definition_sha256: h.definitionSha256,
      registered_at: at,
      build_id: buildId,
      size_floor: Math.min(h.a.examples, h.b.examples),
      suffix_tvd_ceiling: h.suffixTvd,
      matched_suffix: h.matchedSuffix?.suffix ?? null,
    };
    store.run('DELETE FROM halves_registrations WHERE org = ?', [org]);
    store.run(
      `INSERT INTO halves_registrations(org, window, definition_sha256, registered_at, build_id, size_floor, suffix_tvd_ceiling, matched_suffix)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [org, reg.window, reg.definition_sha256, at, buildId, reg.size_floor, reg.suffix_tvd_ceiling, reg.matched_suffix],
    );
    store.run(
      `INSERT INTO halves_events(org, window, action, definition_sha256, build_id, size_floor, suffix_tvd_ceiling, matched_suffix, at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        org,
        reg.window,
        existing.has(org) ? 'replaced' : 'registered',
        reg.definition_sha256,
        buildId,
        reg.size_floor,
        reg.suffix_tvd_ceiling,
        reg.matched_suffix,
        at,
      ],
    );
    out.push(reg);
  }
  return out;
}
