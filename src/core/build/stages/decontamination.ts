// What a build protects and how it reports it: the registered reference sets (protect) under the rules'
// policy, and train against the other windows only when decontam.crossWindow is on, under its own
// policy. The report goes into dataset-funnel.json as `decontamination`, its warnings as `warnings`.
import type { CorpusConfig } from '../../ground/config/types';
import type { CorpusStore } from '../../ground/store/corpusStore';
import type { Protection } from '../../rules/decontam/decontaminate';
import {
  crossWindowMatchSettings,
  crossWindowPolicy,
  crossWindowProtected,
  crossWindowSettings,
  isCrossWindowSet,
  storedBeforeCrossWindow,
} from '../../rules/decontam/crossWindow';
import { matchingPolicy } from '../../rules/decontam/policy';
import { protectedSets, protectedTexts, type ProtectedSetInfo } from '../../rules/decontam/referenceSets';
import { crossWindowWarnings, type CrossWindowRemoved, type CrossWindowReport } from '../reports/crossWindowReport';
import { COMMENT_RULES } from '../../rules/funnel';
import { protectedComment } from '../../rules/comments/protectedComment';
import { protectedOverlap } from '../../rules/decontamination/protectedOverlap';
import { TRAIN_WINDOW } from '../../rules/decontam/decontaminate';
import type { CrossWindowConfig } from '../../ground/config/types';
import type { Removal } from '../../rules/types';
import { DECONTAMINATION_NOTE, type DecontaminationReport } from '../reports/funnelReport';
import type { CommentRec } from './commentStage';
import type { ExampleRec } from './exampleStage';

export interface DecontaminationSetup {
  sets: ProtectedSetInfo[];
  protection: Protection;
  /** The windows train is checked against (none while cross-window decontamination is off). */
  against: string[];
}

/** The registered sets, read from the file like every other record the build uses, and the cross-window pass when on. */
export function decontaminationSetup(
  store: CorpusStore,
  config: CorpusConfig,
  windowNames: readonly string[],
): DecontaminationSetup {
  const settings = crossWindowSettings(config);
  const against = crossWindowProtected(settings, windowNames);
  const crossWindow = against.length
    ? { protectedWindows: against, policy: crossWindowPolicy(settings, config.rules) }
    : undefined;
  return {
    sets: protectedSets(store),
    protection: { references: protectedTexts(store), ...(crossWindow ? { crossWindow } : {}) },
    against,
  };
}

/** The funnel's `decontamination` object, and what it warns about. */
export function decontaminationReport(
  config: CorpusConfig,
  setup: DecontaminationSetup,
  examples: readonly ExampleRec[],
  comments: readonly CommentRec[],
): { report: DecontaminationReport; warnings: string[] } {
  const settings = crossWindowSettings(config);
  const crossWindow = crossWindowReport(settings, setup.against, storedBeforeCrossWindow(config), examples, comments);
  return {
    report: {
      policy: { ...matchingPolicy(config.rules), projectBlocklist: [...config.rules.projectBlocklist] },
      references: setup.sets.map((s) => ({
        name: s.name,
        sha256: s.sha256,
        items: s.items,
        registered_at: s.registered_at,
      })),
      automatic: setup.against,
      crossWindow,
      note: DECONTAMINATION_NOTE,
    },
    warnings: crossWindowWarnings(crossWindow),
  };
}

const crossWindowRemoval = (rule: string, r: Removal | null | undefined) =>
  r?.rule === rule && isCrossWindowSet(String(r.evidence?.reference_set ?? ''));

/** Train's examples and comments that reached the check, and those it removed, per organization. */
function removedCounts(examples: readonly ExampleRec[], comments: readonly CommentRec[]): CrossWindowRemoved[] {
  const rows = new Map<string, CrossWindowRemoved>();
  const row = (org: string, unit: CrossWindowRemoved['unit']) => {
    const key = `${org}\0${unit}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { org, window: TRAIN_WINDOW, unit, checked: 0, removed: 0 }));
    return r;
  };
  for (const e of examples) {
    if (e.window !== TRAIN_WINDOW || (e.stage !== 'decontamination' && e.stage !== 'windows')) continue;
    const r = row(e.change.org, 'examples');
    r.checked++;
    if (crossWindowRemoval(protectedOverlap.id, { rule: e.rule ?? '', evidence: e.evidence })) r.removed++;
  }
  // Comment by comment (rules.protectedCommentLevel): those kept by every rule before protected_comment.
  const position = COMMENT_RULES.indexOf(protectedComment);
  const reached = (c: CommentRec) =>
    c.removal === null || COMMENT_RULES.findIndex((x) => x.id === c.removal!.rule) >= position;
  for (const c of comments) {
    if (c.change.window?.name !== TRAIN_WINDOW || !reached(c)) continue;
    const r = row(c.change.org, 'comments');
    r.checked++;
    if (crossWindowRemoval(protectedComment.id, c.removal)) r.removed++;
  }
  return [...rows.values()]
    .filter((r) => r.unit === 'examples' || r.removed > 0)
    .sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : a.unit < b.unit ? 1 : -1));
}

function crossWindowReport(
  settings: CrossWindowConfig,
  against: readonly string[],
  storedBeforeSetting: boolean,
  examples: readonly ExampleRec[],
  comments: readonly CommentRec[],
): CrossWindowReport {
  return {
    enabled: settings.enabled,
    ...(storedBeforeSetting ? { storedBeforeSetting: true as const } : {}),
    window: TRAIN_WINDOW,
    against: [...against],
    policy: crossWindowMatchSettings(settings),
    removed: against.length ? removedCounts(examples, comments) : [],
  };
}
