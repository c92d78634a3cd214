// The funnel report's agreement among all raters: the label audit's (labels/auditAgreement.ts) and
// the comment quality's (qualityRaterAgreement.ts). The inspector reads the input from the open file
// (quick) and computes the figures in a worker process (their bootstrap is not), as the diversity.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { currentAuditSample } from '../labels/auditSample';
import {
  auditAgreementInput,
  auditRaterAgreement,
  type AuditAgreementInput,
  type OrgRaterAgreement,
} from '../labels/auditAgreement';
import {
  qualityAgreementInput,
  qualityRaterAgreement,
  type QualityAgreementInput,
  type QualityRaterAgreement,
} from './qualityRaterAgreement';

export interface RaterAgreementInput {
  /** null: no audit sample drawn. */
  audit: AuditAgreementInput | null;
  quality: QualityAgreementInput;
}

export interface RaterAgreementFigures {
  /** Per organization of the audit sample; null: no sample drawn. */
  audit: [string, OrgRaterAgreement][] | null;
  quality: QualityRaterAgreement;
}

export function raterAgreementInput(store: CorpusStore, buildId: number | undefined): RaterAgreementInput {
  const sample = currentAuditSample(store);
  return {
    audit: sample ? auditAgreementInput(store, sample) : null,
    quality: qualityAgreementInput(store, buildId),
  };
}

export function raterAgreementFigures(input: RaterAgreementInput): RaterAgreementFigures {
  return {
    audit: input.audit ? [...auditRaterAgreement(input.audit)] : null,
    quality: qualityRaterAgreement(input.quality),
  };
}
