// Registered halves (docs/publishing.md), recorded like a sealed window: `review-corpus halves register` fixes,
// per organization, the split definition's hash, the time, the size floor (the smaller half's size),
// the suffix-mix ceiling and the matched suffix, read from the latest build. Every later build is
// checked against them (checkHalves) and says pass or fail. Re-registering is explicit (replace) and
// recorded in halves_events.
//
// The ceiling is the total variation distance measured at registration, not a config value (a
// registration measuring 0.3187 makes 0.3187 the language-mix ceiling), so a later build whose halves
// drift further apart fails, and the number cannot be tuned in the config after a reading without a
// recorded re-registration.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import type { DatasetFunnel } from '../reports/funnelReport';
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
  // A floor of 0 (a half empty at registration, accepted before registering refused it) checks nothing.
  if (reg.size_floor < 1)
    failures.push(
      `the registered size floor is ${n(reg.size_floor)} (a half was empty when registered), so it checks nothing; register again with --replace`,
    );
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
 * Registers `org`'s halves of the latest build (or `buildId`): one organization at a time, so that
 * registering one never fixes another's criteria unasked. Refused with one line, before anything is
 * written: an organization the build does not hold, one without halves, a half with no example (its
 * size floor would be 0, which any later build passes), or one registered already without `replace`
 * (a replacement is recorded as 'replaced'). Call inside a transaction.
 */
export function registerHalves(
  store: CorpusStore,
  opts: { org: string; window?: string; replace?: boolean; at?: string; buildId?: number },
): HalvesRegistration {
  const at = opts.at ?? new Date().toISOString();
  const buildId =
    opts.buildId ?? Number(store.scalar('SELECT max(id) FROM builds WHERE finished_at IS NOT NULL') ?? NaN);
  if (!Number.isFinite(buildId)) throw new UserError(`${store.file}: no build yet; build before registering halves`);
  const { org } = opts;
  const h = halvesToRegister(storedFunnel(store, buildId), buildId, org);
  if (opts.window !== undefined && opts.window !== h.window)
    throw new UserError(`halves register: --window ${opts.window}: build ${buildId} splits window "${h.window}"`);
  const empty = (['a', 'b'] as const).find((half) => h[half].examples === 0);
  if (empty)
    throw new UserError(
      `halves register: ${org}'s half ${empty} of ${h.window} is empty in build ${buildId} (0 examples), so its size floor would be 0; nothing was registered`,
    );
  const existing = registeredHalves(store).find((r) => r.org === org);
  if (existing && !opts.replace)
    throw new UserError(
      `halves register: ${org}'s halves are registered already (${existing.registered_at}, size floor ${n(existing.size_floor)}); --replace replaces them, and the replacement is recorded`,
    );
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
  const values = [reg.definition_sha256, buildId, reg.size_floor, reg.suffix_tvd_ceiling, reg.matched_suffix];
  store.run('DELETE FROM halves_registrations WHERE org = ?', [org]);
  store.run(
    `INSERT INTO halves_registrations(org, window, definition_sha256, build_id, size_floor, suffix_tvd_ceiling, matched_suffix, registered_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [org, reg.window, ...values, at],
  );
  store.run(
    `INSERT INTO halves_events(org, window, action, definition_sha256, build_id, size_floor, suffix_tvd_ceiling, matched_suffix, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [org, reg.window, existing ? 'replaced' : 'registered', ...values, at],
  );
  return reg;
}

/** `org`'s halves in the build's funnel, or a one-line error naming the organization. */
function halvesToRegister(funnel: DatasetFunnel, buildId: number, org: string): HalvesReport {
  const withHalves = Object.keys(funnel.organizations).filter((o) => funnel.organizations[o].halves);
  const which = withHalves.length
    ? `organizations with halves: ${withHalves.join(', ')}`
    : 'no organization has halves';
  const o = funnel.organizations[org];
  if (!o)
    throw new UserError(`halves register: --org ${org}: build ${buildId} has no organization "${org}" (${which})`);
  if (!o.halves)
    throw new UserError(
      `halves register: --org ${org}: build ${buildId} has no halves of ${org} (the corpus config defines none, or none of its kept examples is in their window; ${which})`,
    );
  return o.halves;
}
