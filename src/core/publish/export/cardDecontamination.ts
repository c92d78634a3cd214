// The card's decontamination section, from the `decontamination` object of dataset-funnel.json when
// the build wrote one: the matching policy, each registered reference set with its SHA-256 and item
// count, the windows protected automatically, what protected_overlap (and protected_comment, when the
// policy removes comments one by one) removed, and the build's note
// word for word. Without it the card says no decontamination was applied.
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import { mdCode, mdCount, mdHeader, mdRow, mdText } from '../../ground/text/markdown';

export function renderDecontamination(funnel: DatasetFunnel, p: (...lines: string[]) => void): void {
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
      'No decontamination was applied: no protected reference set is registered and no window protects train automatically, so no example was checked. The policy the build would have used:',
    );
  }
  const policy = Object.entries(d.policy ?? {});
  p(
    'Matching policy:',
    '',
    ...(policy.length ? policy.map(([k, v]) => `- ${mdCode(k)}: ${mdCode(JSON.stringify(v))}`) : ['- none recorded']),
  );
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
  const automatic = d.automatic ?? [];
  p(
    `Windows protected automatically: ${automatic.length ? automatic.map((w) => mdCode(String(w))).join(', ') : 'none'}.`,
  );
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
