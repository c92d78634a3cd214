// The card's decontamination section, from the `decontamination` object of dataset-funnel.json when
// the build wrote one: the matching policy, each registered reference set with its SHA-256 and item
// count, whether cross-window decontamination was on (with its own policy and what it removed of
// train), what protected_overlap (and protected_comment, when the policy removes comments one by one)
// removed, and the build's note word for word. Without it the card says no decontamination was applied.
import type { DatasetFunnel, DecontaminationReport } from '../../build/reports/funnelReport';
import type { CrossWindowReport } from '../../build/reports/crossWindowReport';
import { mdCode, mdCount, mdHeader, mdRow, mdText } from '../../ground/text/markdown';

type Para = (...lines: string[]) => void;

const policyLines = (policy: object) => {
  const entries = Object.entries(policy);
  return entries.length ? entries.map(([k, v]) => `- ${mdCode(k)}: ${mdCode(JSON.stringify(v))}`) : ['- none recorded'];
};

/** Whether train was checked against other windows, under which policy, and how much of it went. */
function renderCrossWindow(d: DecontaminationReport, warnings: readonly string[], p: Para): void {
  const c: CrossWindowReport | undefined = d.crossWindow;
  const against = (c?.against ?? d.automatic ?? []).map((w) => mdCode(String(w))).join(', ');
  if (!c) {
    // A build from before decontam.crossWindow: every window but train protected train, under the policy above.
    p(
      d.automatic?.length
        ? `Cross-window decontamination: on. This build predates the ${mdCode('decontam.crossWindow')} setting, when every window but train protected train automatically: train examples were checked against ${against} under the matching policy above.`
        : 'Cross-window decontamination: off (no window protected train).',
    );
    return;
  }
  if (!c.enabled) {
    p(
      `Cross-window decontamination: off (${mdCode('decontam.crossWindow.enabled')} is false, the default): no train example was checked against another window of this corpus.`,
    );
    return;
  }
  const stored = c.storedBeforeSetting
    ? ` The build's stored config predates the ${mdCode('decontam.crossWindow')} setting; builds then always did this, and the build did as they did.`
    : '';
  p(
    `Cross-window decontamination: on (${mdCode('decontam.crossWindow.enabled')}).${stored} ${
      c.against.length
        ? `Train examples were checked against ${against}, under its own policy:`
        : 'The corpus has no train window, so nothing was checked. Its policy:'
    }`,
    '',
    ...policyLines(c.policy),
  );
  if (c.removed.length)
    p(
      'What it removed of train:',
      '',
      ...c.removed.map(
        (r) =>
          `- ${mdCode(r.org)}: ${mdCount(r.removed)} of ${mdCount(r.checked)} ${r.unit}${r.checked ? ` (${((100 * r.removed) / r.checked).toFixed(1)}%)` : ''}.`,
      ),
    );
  for (const w of warnings) p(`> **Warning:** ${mdText(w)}.`);
}

export function renderDecontamination(funnel: DatasetFunnel, p: Para): void {
  p('## Decontamination');
  const d = funnel.decontamination;
  if (!d) {
    p(
      "No decontamination was applied: this build's funnel records none, so no example was checked against another benchmark's data or against another window.",
    );
    return;
  }
  if (d.references.length === 0 && d.automatic.length === 0) {
    p(
      'No decontamination was applied: no protected reference set is registered and cross-window decontamination checked no window, so no example was checked. The policy the build would have used:',
    );
  }
  p('Matching policy (the registered reference sets):', '', ...policyLines(d.policy ?? {}));
  const refs = d.references ?? [];
  p(
    'Protected reference sets:',
    '',
    ...(refs.length
      ? [
          ...mdHeader(['set', 'items', 'sha256', 'registered at'], new Set([1])),
          ...refs.map((r) =>
            mdRow([
              mdCode(String(r.name), { inTable: true }),
              mdCount(Number(r.items)),
              mdCode(String(r.sha256), { inTable: true }),
              mdCode(String(r.registered_at), { inTable: true }),
            ]),
          ),
        ]
      : ['none registered']),
  );
  renderCrossWindow(d, funnel.warnings ?? [], p);
  const orgs = Object.keys(funnel.organizations);
  const windows = [...new Set(Object.values(funnel.organizations).flatMap((o) => Object.keys(o.windows)))];
  const removed = (rule: string, rows: { rule: string; removed: number | null }[] | undefined) => {
    const r = rows?.find((x) => x.rule === rule);
    return r ? mdCount(r.removed) : 'not in this build';
  };
  // protected_comment removes comments only when the policy says so (rules.protectedCommentLevel).
  const tables: [string, string][] = [['protected_overlap', 'Examples']];
  if ((d.policy as { commentMatchRemoves?: string } | undefined)?.commentMatchRemoves === 'comment')
    tables.push(['protected_comment', 'Comments']);
  for (const [rule, units] of tables) {
    p(
      `${units} \`${rule}\` removed:`,
      '',
      ...mdHeader(['window', ...orgs.map((o) => mdCode(o, { inTable: true }))], new Set(orgs.map((_, i) => i + 1))),
      ...windows.map((w) =>
        mdRow([
          mdCode(w, { inTable: true }),
          ...orgs.map((o) => {
            const rep = funnel.organizations[o].windows[w];
            return rep?.sealed ? 'sealed' : removed(rule, rep?.funnel);
          }),
        ]),
      ),
      mdRow(['all', ...orgs.map((o) => removed(rule, funnel.organizations[o].funnel))]),
    );
  }
  if (d.note) p(`> ${mdText(d.note)}`);
}
