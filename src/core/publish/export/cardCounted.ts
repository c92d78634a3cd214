// The dataset card's "counted, not assumed" sections (#16): the comment-count probe of each host, what
// the build could not count there (and why), and the overlap note with its number. The words are the
// funnel's own (build/reports/funnelNotes.ts), so the card says what the CLI, tree and webview say.
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import { PROBE_NOT_RUN } from '../../build/reports/funnelNotes';
import { mdCode, mdText } from '../../ground/text/markdown';
import { isSwitchedOff } from '../../rules/switchedOff';

type Para = (...lines: string[]) => void;

export function renderCounted(funnel: DatasetFunnel, p: Para): void {
  const orgs = Object.entries(funnel.organizations);
  p(
    '## Comment-count probe',
    '',
    'A change whose listing reports `total_comment_count` 0 is skipped (`no_comments`) only once a probe held on its host: comments were fetched for a seeded random sample of such changes, and none had an inline comment. Otherwise the host was fetched without the shortcut.',
  );
  for (const [org, o] of orgs) {
    const probe = o.probe;
    const how = probe
      ? ` (sample ${probe.sample}, seed ${probe.seed}, ${probe.candidates.toLocaleString('en-US')} candidate${probe.candidates === 1 ? '' : 's'}, at ${mdCode(probe.probed_at)})`
      : '';
    p(`${mdCode(org)}: ${mdText(probe?.text ?? PROBE_NOT_RUN)}${how}.`);
  }
  const gaps = orgs.flatMap(([org, o]) => [
    ...o.funnel
      .filter((r) => r.notCounted)
      .map((r) =>
        isSwitchedOff(r.notCounted)
          ? `- ${mdCode(org)}, ${mdCode(r.rule)}: off, ${mdText(r.notCounted!.slice('off: '.length))}.`
          : `- ${mdCode(org)}, ${mdCode(r.rule)}: not counted, ${mdText(r.notCounted!)}.`,
      ),
    ...o.funnel
      .filter((r) => r.removed !== null && r.partly)
      .map(
        (r) =>
          `- ${mdCode(org)}, ${mdCode(r.rule)}: partly counted (${r.removed!.toLocaleString('en-US')} is a lower bound), ${mdText(r.partly!)}.`,
      ),
    ...Object.entries(o.notCounted ?? {}).map(
      ([k, why]) => `- ${mdCode(org)}, counter ${mdCode(k)}: not counted, ${mdText(why)}.`,
    ),
  ]);
  p(
    '## What was not counted',
    '',
    gaps.length
      ? 'A rule that could not run on a host reads "not counted" there, never 0; a count that leaves out a part of its rule says so.'
      : 'Every rule ran on every host: no count is missing or partial.',
    ...(gaps.length ? ['', ...gaps] : []),
  );
  p(
    '## Overlap between the comment rules and `nothing_left`',
    '',
    ...orgs.map(([org, o]) => `- ${mdCode(org)}: ${mdText(o.overlap ?? '')}.`),
  );
}
