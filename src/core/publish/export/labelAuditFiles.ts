// label-audit-<org>.json, one per organization of the audit sample, written by `export` and by
// `review-corpus audit report`. Each file is written atomically; without a drawn sample none is written.
import path from 'node:path';
import { labelAudit, type LabelAuditReport } from '../../review/labels/labelAudit';
import { saveAtomically } from '../../ground/store/atomicSave';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';

export const labelAuditFile = (org: string): string => {
  // The config allows only these in an organization's name; a file that says otherwise names no path here.
  if (!/^[A-Za-z0-9_.-]+$/.test(org))
    throw new UserError(`organization ${JSON.stringify(org)}: not a name a label-audit file can carry`);
  return `label-audit-${org}.json`;
};

export function writeLabelAudits(
  store: CorpusStore,
  buildId: number,
  dir: string,
  report: LabelAuditReport | undefined = labelAudit(store, buildId),
): string[] {
  if (!report) return [];
  return report.organizations.map((o) => {
    const file = path.join(dir, labelAuditFile(o.org));
    saveAtomically(file, Buffer.from(JSON.stringify(o, null, 2) + '\n', 'utf8'));
    return file;
  });
}
