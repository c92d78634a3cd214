// What cross-window decontamination did in a build (decontam.crossWindow): whether it was on, under
// which policy, against which windows, and per organization how much of train it removed. Written into
// dataset-funnel.json (`decontamination.crossWindow`, and `warnings` when it removed more than a tenth
// of a window), so the CLI's funnel and build lines, the webview and the card all say the same thing.
// The counting is build/stages/decontamination.ts's.
import type { CrossWindowConfig } from '../../ground/config/types';

/** More than this share of a window's units removed across windows is warned about. */
export const CROSS_WINDOW_WARN_SHARE = 0.1;

export interface CrossWindowRemoved {
  org: string;
  window: string;
  unit: 'examples' | 'comments';
  /** Units of the window that reached the check (examples after the duplicates; comments the comment rules before it kept). */
  checked: number;
  removed: number;
}

export interface CrossWindowReport {
  enabled: boolean;
  /**
   * The build's config was stored before decontam.crossWindow existed, so it ran as every build did then:
   * on, under the registered sets' policy (rules/decontam/crossWindow.ts, legacyCrossWindow).
   */
  storedBeforeSetting?: true;
  /** The window whose units are checked. */
  window: string;
  /** The windows it is checked against (none while off). */
  against: string[];
  policy: Omit<CrossWindowConfig, 'enabled'>;
  /** Per organization and unit, while on; empty while off. */
  removed: CrossWindowRemoved[];
}

const share = (r: CrossWindowRemoved) => (r.checked === 0 ? 0 : r.removed / r.checked);

/** One line per organization and unit where it removed more than a tenth of the window; empty when none. */
export function crossWindowWarnings(report: CrossWindowReport | undefined): string[] {
  if (!report?.enabled) return [];
  return report.removed
    .filter((r) => share(r) > CROSS_WINDOW_WARN_SHARE)
    .map(
      (r) =>
        `cross-window decontamination removed ${r.removed.toLocaleString('en-US')} of ${r.checked.toLocaleString('en-US')} ${r.unit} (${(100 * share(r)).toFixed(1)}%) of ${r.org} ${r.window}, more than a tenth: check decontam.crossWindow in corpus.json`,
    );
}

/** The state in one line, for the funnel table and the webview (and older builds, from what they recorded). */
export function crossWindowLine(
  report: CrossWindowReport | undefined,
  automatic: readonly string[] | undefined,
): string {
  if (!report) {
    // A build from before decontam.crossWindow recorded only the windows it protected automatically.
    return automatic?.length
      ? `cross-window decontamination: on (this build predates decontam.crossWindow: train was checked against ${automatic.join(', ')} under the registered sets' policy)`
      : 'cross-window decontamination: off (no train window, or none recorded)';
  }
  if (!report.enabled) return 'cross-window decontamination: off (decontam.crossWindow.enabled is false)';
  const policy = Object.entries(report.policy)
    .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
    .join(', ');
  const where = report.against.length
    ? `${report.window} checked against ${report.against.join(', ')}`
    : 'no train window';
  const why = report.storedBeforeSetting ? '; the stored config predates decontam.crossWindow, which was on then' : '';
  return `cross-window decontamination: on (${where}; policy ${policy}${why})`;
}
