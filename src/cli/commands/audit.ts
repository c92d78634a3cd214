// `audit sample`, `audit export` and `audit report`: the label audit's seeded sample, its items as
// JSONL for raters (human or model), and label-audit-<org>.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/ground/store/corpusStore';
import { UserError } from '../../core/ground/store/errors';
import { withCorpusWrite } from '../corpusWrite';
import { requireBuild } from '../../core/review/inspect/groups';
import { buildLabel, checkBuildRef, resolveBuild } from '../../core/publish/versions/tags';
import {
  checkAuditParameters,
  currentAuditSample,
  DEFAULT_AUDIT_SIZE,
  drawAuditSample,
} from '../../core/review/labels/auditSample';
import { auditExportLines } from '../../core/review/labels/auditExport';
import { labelAudit } from '../../core/review/labels/labelAudit';
import { agreementLines } from '../../core/review/labels/auditAgreement';
import {
  QUALITY_AGREEMENT_FILE,
  qualityAgreementInput,
  qualityAgreementLines,
  qualityMeasured,
  qualityRaterAgreement,
} from '../../core/review/quality/qualityRaterAgreement';
import { writeLabelAudits } from '../../core/publish/export/labelAuditFiles';
import { saveAtomically } from '../../core/ground/store/atomicSave';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';

const BUILD_OPTION = {
  type: 'string',
  arg: '<build>',
  description: 'a build id or tag name (default: the latest build)',
} as const;

const buildOf = (store: CorpusStore, value: string | boolean | undefined) =>
  value === undefined ? requireBuild(store) : resolveBuild(store, String(value), '--build');

function outFolder(out: string): void {
  if (!existsSync(path.dirname(path.resolve(out))))
    throw new UserError(`--out ${out}: the folder ${path.dirname(path.resolve(out))} does not exist`);
}

export const auditSampleCommand: CliCommand = {
  name: 'audit sample',
  summary:
    "draw the label audit's sample: kept examples of a build, stratified by organization × window (proportional, largest remainder), by a seed, stored in the file",
  options: {
    db: DB_OPTION,
    build: BUILD_OPTION,
    size: {
      type: 'string',
      arg: '<n>',
      description: `how many examples (default ${DEFAULT_AUDIT_SIZE}; all of them when the build keeps fewer)`,
    },
    seed: {
      type: 'string',
      arg: '<seed>',
      description: 'the seed the sample is drawn with; the same seed and build give the same items',
      required: true,
    },
    redraw: { type: 'boolean', description: 'draw again although a sample is drawn; the earlier one stays on record' },
    wait: WAIT_OPTION,
  },
  async run(values, io) {
    const db = String(values.db);
    const size = values.size === undefined ? DEFAULT_AUDIT_SIZE : Number(values.size);
    if (values.size !== undefined && !/^\d+$/.test(String(values.size)))
      throw new UserError(`audit sample: --size ${String(values.size)}: a whole number of examples`);
    checkAuditParameters(size, String(values.seed));
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const waitMs = lockWaitMs('audit sample', values.wait);
    return withCorpusWrite(io, { db, command: 'review-corpus audit sample', waitMs }, async (store) => {
      const buildId = buildOf(store, values.build);
      const s = store.transaction(() =>
        drawAuditSample(store, { buildId, size, seed: String(values.seed), redraw: values.redraw === true }),
      );
      store.save();
      io.out(
        visibleEscapes(
          `drew audit sample ${s.id}: ${s.items} of ${s.strata.reduce((n, x) => n + x.population, 0)} kept examples of ${buildLabel(store, buildId)}, seed "${s.seed}", sha256 ${s.itemsSha256}`,
        ),
      );
      for (const x of s.strata)
        io.out(visibleEscapes(`  ${x.org} ${x.window ?? '(no window)'}: ${x.drawn} of ${x.population}`));
      return 0;
    });
  },
};

export const auditExportCommand: CliCommand = {
  name: 'audit export',
  summary:
    "write the audit sample's items as JSONL in order (example_key, the hunk before and after, the comments), the same file for a human and for model raters",
  options: {
    db: DB_OPTION,
    out: { type: 'string', arg: '<items.jsonl>', description: 'where to write the items', required: true },
  },
  async run(values, io) {
    const out = String(values.out);
    outFolder(out);
    const store = await CorpusStore.open(String(values.db));
    try {
      const sample = currentAuditSample(store);
      if (!sample)
        throw new UserError(
          `${store.file}: no audit sample drawn; run review-corpus audit sample --db ${store.file} --seed <seed>`,
        );
      const lines = auditExportLines(store, sample);
      saveAtomically(out, Buffer.from(lines.map((l) => l + '\n').join(''), 'utf8'));
      io.out(
        visibleEscapes(
          `wrote the ${lines.length} items of audit sample ${sample.id} to ${out}; raters answer with {"example_key", "label"} lines for review-corpus labels import`,
        ),
      );
      return 0;
    } finally {
      store.close();
    }
  },
};

export const auditReportCommand: CliCommand = {
  name: 'audit report',
  summary:
    "write label-audit-<org>.json: per rater the valid share and its counts, pairwise Cohen's κ, Fleiss' κ and Krippendorff's α among all raters (per window, humans, models, both, with bootstrap 95% intervals; the same for comment quality in quality-agreement.json), the shares on a build's kept set, and cross-tabs by rule and flag",
  options: {
    db: DB_OPTION,
    build: {
      ...BUILD_OPTION,
      description:
        'the build whose kept set and rules the report compares with: a build id or tag name (default: the latest build)',
    },
    out: { type: 'string', arg: '<folder>', description: 'the folder to write the files into', required: true },
  },
  async run(values, io) {
    const out = String(values.out);
    if (!existsSync(path.resolve(out))) throw new UserError(`--out ${out}: no such folder`);
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const store = await CorpusStore.open(String(values.db));
    try {
      const buildId = buildOf(store, values.build);
      const report = labelAudit(store, buildId);
      if (!report)
        throw new UserError(
          `${store.file}: no audit sample drawn; run review-corpus audit sample --db ${store.file} --seed <seed>`,
        );
      const files = writeLabelAudits(store, buildId, out, report);
      // The comment quality's agreement among all raters (hand quality labels, judge models), when any is measured.
      const quality = qualityRaterAgreement(qualityAgreementInput(store, buildId));
      if (qualityMeasured(quality)) {
        const file = path.join(out, QUALITY_AGREEMENT_FILE);
        saveAtomically(file, Buffer.from(JSON.stringify(quality, null, 2) + '\n', 'utf8'));
        files.push(file);
      }
      for (const o of report.organizations) {
        for (const line of o.summary) io.out(visibleEscapes(`${o.org}: ${line}`));
        for (const line of o.rater_agreement ? agreementLines(o.rater_agreement) : [])
          io.out(visibleEscapes(`${o.org}: ${line}`));
      }
      for (const line of qualityAgreementLines(quality)) io.out(visibleEscapes(line));
      for (const f of files) io.out(visibleEscapes(`wrote ${f}`));
      return 0;
    } finally {
      store.close();
    }
  },
};
