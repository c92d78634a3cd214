// The dataset card (README.md): the Hub's YAML header, then how the corpus was built and what each
// rule removed, every number read from the exported build (its funnel, its decisions, the file's
// windows and labels). What the file does not record is said plainly ("not run", "not counted"),
// never filled in. Host and config text goes through mdCode, so none of it forms Markdown.
import type { DatasetFunnel } from '../../build/reports/funnelReport';
import type { RulesConfig } from '../../ground/config/types';
import type { StoredWindow } from '../../ground/config/windows';
import type { labelReport } from '../../review/labels/labels';
import { FUNNEL } from '../../rules/funnel';
import { isSwitchedOff } from '../../rules/switchedOff';
import type { Stage } from '../../rules/types';
import { cardHeader, UNKNOWN_LICENSE, type CardConfig, type CardSplit } from './cardHeader';
import type { CountRow } from './counts';
import { renderDecontamination } from './cardDecontamination';
import { renderLabelAudit } from './cardLabelAudit';
import { renderQualityAgreement } from './cardQualityAgreement';
import type { QualityRaterAgreement } from '../../review/quality/qualityRaterAgreement';
import type { LabelAuditReport } from '../../review/labels/labelAudit';
import { renderShares } from './cardShares';
import { renderCounted } from './cardCounted';
import { mdCode, mdCount, mdHeader, mdRow, mdText } from '../../ground/text/markdown';
import { recordFieldRows } from '../../build/records/recordSchema';

export interface CardInput {
  title: string;
  card: CardConfig | undefined;
  funnel: DatasetFunnel;
  counts: readonly CountRow[];
  build: {
    id: number;
    configHash: string;
    rulesVersion: string;
    corpusHash: string | null;
    finishedAt: string | null;
    /** The build stored its published records, so its corpus hash covers every exported byte. */
    recordsStored: boolean;
    /** The build recorded the configuration it was built with. */
    configRecorded: boolean;
    /** The tags naming the build; a tagged build's export is frozen. */
    tags: readonly string[];
  };
  /** The build config's start date and thresholds, as stored in the file. */
  start: string;
  rules: RulesConfig;
  windows: readonly StoredWindow[];
  splits: readonly CardSplit[];
  labels: ReturnType<typeof labelReport>;
  /** The label audit on the current sample, compared with this build; absent: no sample drawn. */
  labelAudit?: LabelAuditReport;
  /** Agreement among all raters of comment quality; absent or unmeasured: no section. */
  qualityAgreement?: QualityRaterAgreement;
  hosts: readonly { org: string; url: string }[];
  /** Per organization, kept examples per project, most first. */
  projects: ReadonlyMap<string, readonly { project: string; examples: number }[]>;
  auditLines: number;
  files: { examples: string; funnel: string; counts: string; audit: string };
}

const STAGE_TEXT: Record<Stage, (start: string) => string> = {
  collection: (start) =>
    `**Collection** (unit: changes). Each host lists its merged changes; a change is kept only when it was created on or after ${start}. A change is removed by the first of these rules that applies:`,
  comments: () =>
    '**Comments** (unit: comments). Every comment of a kept change, each removed by the first of these rules that applies:',
  hunks: () =>
    '**Hunks** (unit: hunks). A hunk is a region the next patch set edited around comments anchored on code: the before side at patch set N, the after side at N + 1. A hunk is removed when:',
  examples: () =>
    "**Examples** (unit: examples). A hunk that passed is an example: the hunk, its comments and the next patch set's answer. The label is never guessed, since the next patch set is the answer. An example is removed when:",
  duplicates: () =>
    '**Duplicates** (unit: examples). Across each whole organization, so that the same pair is never in two windows, the earliest example of a duplicate set (by change creation time) is kept and the others are removed as:',
  decontamination: () =>
    '**Decontamination** (unit: examples). An example is removed when it matches a registered protected reference set:',
};

/** Column indexes from..from + count - 1, right-aligned (numbers). */
const numeric = (from: number, count: number) => new Set(Array.from({ length: count }, (_, i) => i + from));

export function datasetCard(input: CardInput): string {
  const { funnel } = input;
  const orgs = Object.keys(funnel.organizations);
  const total = input.splits.reduce((n, s) => n + s.examples, 0);
  const out: string[] = [cardHeader({ title: input.title, card: input.card, splits: input.splits })];
  const p = (...lines: string[]) => out.push(...lines, '');

  p(`# ${mdText(input.title)}`);
  p(
    `Code-review refinement examples from ${orgs.length ? orgs.map((o) => mdCode(o)).join(', ') : 'no organization'}: each is a hunk of one file at patch set N, the reviewer comments anchored inside it, and the same region at patch set N + 1, which is what the change's author wrote in answer. ` +
      `${total.toLocaleString('en-US')} examples in ${input.splits.filter((s) => s.examples > 0).length} splits, one per window. ` +
      `Every number on this card is read from build ${input.build.id} of the corpus file; ${mdCode(input.files.counts)} and ${mdCode(input.files.funnel)} hold them all.`,
  );
  p(
    input.card?.license
      ? `License: ${mdCode(input.card.license)} (from the corpus config).`
      : `License: ${UNKNOWN_LICENSE}. The corpus config sets no \`card.license\`; the comments and code are their authors' on each host, under that host's terms.`,
  );
  p(
    input.card?.language?.length
      ? `Language of the comments: ${input.card.language.map((l) => mdCode(l)).join(', ')} (from the corpus config).`
      : 'Language: not set in the corpus config (`card.language`).',
  );

  p(
    '## Files',
    '',
    ...mdHeader(['file', 'what it holds']),
    ...input.splits
      .filter((s) => s.examples > 0)
      .map((s) =>
        mdRow([
          mdCode(s.path, { inTable: true }),
          `split ${mdCode(s.split, { inTable: true })}: the kept examples of window ${mdCode(s.window, { inTable: true })}`,
        ]),
      ),
    mdRow([
      mdCode(input.files.examples, { inTable: true }),
      'every kept example, all windows (and any outside every window) in one file',
    ]),
    mdRow([mdCode(input.files.funnel, { inTable: true }), 'the funnel per organization and window, with its counters']),
    mdRow([
      mdCode(input.files.counts, { inTable: true }),
      'per organization and rule: input, removed and remaining units, and why a removed count is empty or partial',
    ]),
    mdRow([
      mdCode(input.files.audit, { inTable: true }),
      `one line per removed unit with its rule and evidence (${input.auditLines.toLocaleString('en-US')} lines)`,
    ]),
  );

  renderRecordFields(input, p);
  renderRules(input, p);
  renderFunnel(input, p);
  renderWindows(input, p);
  renderCounted(funnel, p);
  renderTargetInComment(input, p);
  renderLabelAudit(input.labelAudit, input.labels, p);
  renderQualityAgreement(input.qualityAgreement, p);
  renderHalves(input, p);
  renderShares(funnel, p);
  renderDecontamination(funnel, p);
  renderVersions(input, p);
  renderSources(input, p);
  return out.join('\n').replace(/\n+$/, '\n');
}

type Para = (...lines: string[]) => void;

/** Every field of a record, from the schema the export is validated against (build/records/recordSchema.ts). */
function renderRecordFields(input: CardInput, p: Para): void {
  p(
    '## Record fields',
    '',
    `Each line of ${mdCode(input.files.examples)} and of the split files is one JSON object; \`source\` says where on its host each example came from, so any one of them can be fetched again and compared byte for byte.`,
    '',
    ...mdHeader(['field', 'type', 'what it holds']),
    // Our own descriptions, Markdown already (an optional field's says when it is absent); a "|" would end the cell.
    ...recordFieldRows().map((r) =>
      mdRow([mdCode(r.field, { inTable: true }), r.type.replace(/\|/g, '\\|'), r.description.replace(/\|/g, '\\|')]),
    ),
  );
}

function renderRules(input: CardInput, p: Para): void {
  p(
    '## How the dataset is built',
    '',
    'Most of what a review host holds is not such a pair, so most of it is removed, by rules fixed before any outcome was read. A unit is counted by the first rule that removes it. The rules, in the order they run:',
  );
  const rows =
    Object.values(input.funnel.organizations)[0]?.funnel ??
    FUNNEL.map((s) => ({ stage: s.stage, rule: s.rule, unit: s.unit }));
  const stages = [...new Set(rows.map((r) => r.stage))];
  for (const stage of stages) {
    const intro = STAGE_TEXT[stage as Stage]?.(input.start) ?? `**${mdCode(stage)}**:`;
    const rules = rows
      .filter((r) => r.stage === stage)
      .map((r, i) => {
        const step = FUNNEL.find((s) => s.stage === r.stage && s.rule === r.rule);
        const why = 'notCounted' in r ? r.notCounted : undefined;
        // A rule switched off decided nothing in this build: the list says so where the rule is named.
        const off = isSwitchedOff(why) ? ` **Off in this build** (${mdText(why!.slice('off: '.length))}).` : '';
        return `${i + 1}. ${mdCode(r.rule)}: ${step ? step.description : 'no description in this version of the tool'}.${off}`;
      });
    p(intro, '', ...rules);
  }
  p(
    "The thresholds these rules read, as the build's config holds them:",
    '',
    ...mdHeader(['parameter', 'value']),
    ...Object.entries(input.rules)
      .filter(([k]) => k !== 'enabled') // the switches: "Off in this build" above, from the build's own funnel
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => mdRow([mdCode(k, { inTable: true }), mdCode(JSON.stringify(v), { inTable: true })])),
  );
}

function renderFunnel(input: CardInput, p: Para): void {
  const overlap = Object.entries(input.funnel.organizations)
    .map(([org, o]) => `${mdCount(o.counters.nothing_left_overlap)} on ${mdCode(org)}`)
    .join(', ');
  p(
    '## What each rule removed',
    '',
    `Counts from each organization's build, each row in its own unit. Within one unit kind a rule's remaining is the next rule's input, and the hunks no hunk rule removed are the examples the example rules start from. Between changes and comments, and between comments and hunks, the unit changes and the counts are of different things: the comment rules start from every comment of the kept changes, and the hunk rules from every region the next patch set edited around a comment anchored on code, which carries all the comments anchored in it, removed ones included. So a comment removed by a comment rule can belong to an example that \`nothing_left\` then drops for having no comment left; those two steps overlap (comments: ${overlap || 'none'}). A count the build did not record on a host reads as not counted, never 0, and its note says why, and a rule switched off reads off; a count that leaves out part of its rule is a lower bound, and its note says which part. ${mdCode(input.files.counts)} holds the same rows, the note in its ${mdCode('removed_note')} column.`,
  );
  for (const org of Object.keys(input.funnel.organizations)) {
    const rows = input.counts.filter((r) => r.org === org);
    p(
      `### ${mdCode(org)}`,
      '',
      ...mdHeader(['stage', 'rule', 'unit', 'input', 'removed', 'remaining', 'note'], numeric(3, 3)),
      ...rows.map((r) =>
        mdRow([
          r.stage,
          mdCode(r.rule, { inTable: true }),
          r.unit,
          mdCount(r.input),
          r.off ? 'off' : mdCount(r.removed),
          mdCount(r.remaining),
          r.removedNote === null ? '' : mdText(r.removedNote),
        ]),
      ),
    );
    const o = input.funnel.organizations[org];
    p(
      `Counters: ${Object.entries(o.counters)
        .map(([k, v]) => `${mdCode(k)} ${mdCount(v)}`)
        .join(', ')}.`,
    );
  }
}

function windowState(w: StoredWindow | undefined, sealedInBuild: boolean): string {
  if (!w) return sealedInBuild ? 'sealed' : 'open';
  const hash = w.seal_hash ? ` (definition sha256 ${mdCode(w.seal_hash, { inTable: true })})` : '';
  if (w.sealed)
    return `sealed${hash}${w.sealed_at ? ` since ${mdCode(w.sealed_at, { inTable: true })}` : ''}: listed and counted, nothing fetched`;
  if (w.unsealed_at) return `unsealed at ${mdCode(w.unsealed_at, { inTable: true })}${hash}`;
  return 'open';
}

function renderWindows(input: CardInput, p: Para): void {
  const orgs = Object.keys(input.funnel.organizations);
  const names = [...new Set(Object.values(input.funnel.organizations).flatMap((o) => Object.keys(o.windows)))];
  const stored = new Map(input.windows.map((w) => [w.name, w]));
  const split = new Map(input.splits.map((s) => [s.window, s]));
  p(
    '## Windows',
    '',
    'Examples are split by the creation date of their change, each window a half-open interval [from, to). A sealed window is defined, and its definition hashed with SHA-256, before anything is fetched; nothing in it is fetched until it is unsealed, and the unsealing is recorded.',
    '',
    ...mdHeader(
      ['window', 'from', 'to', 'state', ...orgs.map((o) => mdCode(o, { inTable: true })), 'split'],
      numeric(4, orgs.length),
    ),
    ...names.map((name) => {
      const w = stored.get(name);
      const sealedInBuild = orgs.some((o) => input.funnel.organizations[o].windows[name]?.sealed);
      const s = split.get(name);
      return mdRow([
        mdCode(name, { inTable: true }),
        w ? w.from_date : '',
        w ? w.to_date : '',
        windowState(w, sealedInBuild),
        ...orgs.map((o) => {
          const r = input.funnel.organizations[o].windows[name];
          return r?.sealed ? 'sealed' : mdCount(r?.examples);
        }),
        s && s.examples > 0
          ? mdCode(s.split, { inTable: true })
          : sealedInBuild
            ? 'none (sealed)'
            : 'none (no examples)',
      ]);
    }),
  );
  p(
    `Kept examples outside every window (in ${mdCode(input.files.examples)} only): ${orgs.map((o) => `${mdCount(input.funnel.organizations[o].counters.outside_windows)} on ${mdCode(o)}`).join(', ') || 'none'}.`,
  );
}

function renderTargetInComment(input: CardInput, p: Para): void {
  const orgs = Object.keys(input.funnel.organizations);
  const names = [...new Set(Object.values(input.funnel.organizations).flatMap((o) => Object.keys(o.windows)))];
  p(
    '## `target_in_comment`',
    '',
    `Kept examples whose target (the after side, whitespace-normalised per line, ${input.rules.targetInCommentMinChars ?? 20} characters or more) appears verbatim in one of their comments: a reviewer typing the fix in prose. They are reported, not filtered. The same count on the built examples without a suggested edit is in "Suggested edits before dedup".`,
    '',
    ...mdHeader(['window', ...orgs.map((o) => mdCode(o, { inTable: true }))], numeric(1, orgs.length)),
    ...names.map((name) =>
      mdRow([
        mdCode(name, { inTable: true }),
        ...orgs.map((o) => {
          const w = input.funnel.organizations[o].windows[name];
          return w?.sealed ? 'sealed' : mdCount(w?.counters.target_in_comment);
        }),
      ]),
    ),
    mdRow(['all', ...orgs.map((o) => mdCount(input.funnel.organizations[o].counters.target_in_comment))]),
  );
}

function renderHalves(input: CardInput, p: Para): void {
  p('## Halves');
  const withHalves = Object.entries(input.funnel.organizations).filter(([, o]) => o.halves);
  if (withHalves.length === 0) {
    p('None registered: the corpus config defines no halves.');
    return;
  }
  const mix = (s: Record<string, number>) =>
    Object.entries(s)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${mdCode(k, { inTable: true })} ${n}`)
      .join(', ') || 'none';
  for (const [org, o] of withHalves) {
    const h = o.halves!;
    p(
      `${mdCode(org)}: the registered halves of window ${mdCode(h.window)}, by ${h.by === 'hash' ? 'a salted hash of the change number' : 'project lists'}. The file-suffix mixes differ by a total variation distance of ${h.suffixTvd.toFixed(4)}; ${h.unassigned.toLocaleString('en-US')} kept examples of the window are in neither half.`,
      '',
      ...mdHeader(['half', 'examples', 'file suffixes', '`target_in_comment`'], new Set([1, 3])),
      mdRow(['a', h.a.examples, mix(h.a.suffixes), h.a.target_in_comment]),
      mdRow(['b', h.b.examples, mix(h.b.suffixes), h.b.target_in_comment]),
    );
  }
}

function renderVersions(input: CardInput, p: Para): void {
  const b = input.build;
  p('## Versions', '', ...versionsLines(b, input.files.examples));
  p(
    ...mdHeader(['what', 'value']),
    mdRow(['build', String(b.id)]),
    mdRow(['tags', b.tags.length ? b.tags.map((t) => mdCode(t, { inTable: true })).join(', ') : 'none']),
    mdRow(['built at', b.finishedAt ? mdCode(b.finishedAt, { inTable: true }) : 'not finished']),
    mdRow(['rules version', mdCode(b.rulesVersion, { inTable: true })]),
    mdRow(['config hash', mdCode(b.configHash, { inTable: true })]),
    mdRow(['corpus hash', b.corpusHash ? mdCode(b.corpusHash, { inTable: true }) : 'not recorded']),
  );
}

/** What the corpus hash covers and how to check it: old builds say what they lack. */
function versionsLines(b: CardInput['build'], examplesFile: string): string[] {
  if (!b.recordsStored)
    return [
      "This build was written before builds stored their published records: its corpus hash does not cover the records' text, and no rebuild can check it. Rebuild and publish the new build.",
      '',
    ];
  const frozen = b.tags.length
    ? `The build is tagged, so its export is frozen: ${mdCode('review-corpus export --build <tag>')} writes these same bytes whatever is fetched later.`
    : `A tag (${mdCode('review-corpus tag')}) freezes the export of a build; this one is not tagged.`;
  const config = b.configRecorded
    ? 'its own recorded configuration (defaults included), the flag decisions it used and the registered reference sets, so it can be checked after corpus.json has changed'
    : 'the stored configuration';
  return [
    `The corpus hash covers every byte of ${mdCode(examplesFile)} (comment text, flags, labels, paths, windows and each record's source on Gerrit) and the flag decisions the build used. ${mdCode('review-corpus verify --reproduce --build <id|tag>')} rebuilds it from ${config}, and names every example whose published bytes would now differ. ${frozen} See the repository's docs/frozen-builds.md.`,
    '',
  ];
}

const PROJECTS_SHOWN = 20;

function renderSources(input: CardInput, p: Para): void {
  p(
    '## Sources',
    '',
    'Every account is a salted pseudonym, replaced as the data arrived; no account id, name, username or e-mail address is in these files.',
  );
  for (const h of input.hosts) {
    const projects = input.projects.get(h.org) ?? [];
    const more = projects.length - PROJECTS_SHOWN;
    p(
      `${mdCode(h.org)}: ${mdCode(h.url)}, kept examples by project:`,
      '',
      ...(projects.length
        ? projects.slice(0, PROJECTS_SHOWN).map((r) => `- ${mdCode(r.project)}: ${r.examples.toLocaleString('en-US')}`)
        : ['- none']),
      ...(more > 0 ? [`- and ${more.toLocaleString('en-US')} more projects`] : []),
    );
  }
}
