// What a build adds to its funnel about windows and halves beyond the funnel rows: the per-window
// file-suffix mix of kept examples, the suggested-edit shares on the built examples (builtShares.ts) with
// the fence-sensitivity line, and the check of the registered halves (halvesRegistry.ts).
import type { CorpusConfig, WindowConfig } from '../../ground/config/types';
import { builtShares, corpusFenceSensitivity } from './builtShares';
import type { ExampleRec } from '../stages/exampleStage';
import type { DatasetFunnel } from './funnelReport';
import { windowSuffixMix } from '../halves/halves';
import { checkHalves, type HalvesRegistration } from '../halves/halvesRegistry';

export function attachShareReports(
  funnel: DatasetFunnel,
  examples: readonly ExampleRec[],
  config: Pick<CorpusConfig, 'halves' | 'rules'>,
  windows: readonly WindowConfig[],
  registrations: readonly HalvesRegistration[],
): void {
  const orgs = Object.keys(funnel.organizations);
  const mix = windowSuffixMix(examples);
  for (const org of orgs) {
    for (const [name, w] of Object.entries(funnel.organizations[org].windows))
      if (!w.sealed) w.suffixes = sortedMix(mix.get(org)?.get(name) ?? {});
  }
  const shares = builtShares(examples, config, windows, orgs, config.rules.targetInCommentMinChars);
  for (const [org, s] of shares) if (funnel.organizations[org]) funnel.organizations[org].shares = s;
  funnel.fenceSensitivity = corpusFenceSensitivity(shares);
  for (const reg of registrations) {
    const o = funnel.organizations[reg.org];
    if (o) o.halvesCheck = checkHalves(reg, o.halves);
  }
}

/** Most examples first, then by suffix: the JSON reads top-down like the CLI's "top few". */
function sortedMix(m: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(m).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)));
}
