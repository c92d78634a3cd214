// docs/rules.md's reference part: every rule in funnel order with its stage, unit, switch, parameters and
// counters, then the parameters and counters no rule owns, then every parameter in one table. Written
// from the declarations (funnel.ts, each rule's `parameters`, parameterGroups.ts, counters.ts) between
// the markers below by `npm run docs` (scripts/generate-docs.mjs); a unit test fails when the page drifts.
import { mdCode, mdHeader, mdRow } from '../ground/text/markdown';
import { COUNTERS, type CounterDeclaration } from './counters';
import { RULES } from './funnel';
import { PARAMETER_GROUPS } from './parameterGroups';
import type { ParameterOwner } from './parameters';
import { parametersTable, ruleParametersTable } from './ruleParametersTable';
import { STAGES, type Rule } from './types';

export const REFERENCE_START = '<!-- rules-reference:start -->';
export const REFERENCE_END = '<!-- rules-reference:end -->';

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors as a page gets them: a repeated heading gets `-1`, `-2`, … in order. */
class Anchors {
  private readonly seen = new Map<string, number>();
  next(heading: string): string {
    const base = headingAnchor(heading);
    const n = this.seen.get(base) ?? 0;
    this.seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  }
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');

function counterLines(counters: readonly CounterDeclaration[]): string[] {
  if (counters.length === 0) return [];
  return [
    '',
    'Counters:',
    '',
    ...counters.map(
      (c) =>
        `- ${mdCode(c.name)} (${c.perWindow ? 'per organization and window' : 'per organization'}): ${c.description}.`,
    ),
  ];
}

function parameterLines(owner: ParameterOwner): string[] {
  const names = Object.keys(owner.parameters ?? {});
  return names.length === 0 ? [] : ['', ...parametersTable(names)];
}

const countersOf = (id: string) => COUNTERS.filter((c: CounterDeclaration) => c.rule === id);

function switchLine(rule: Rule<never>): string {
  return rule.notSwitchable
    ? `Cannot be switched off: ${rule.notSwitchable}.`
    : `Switch off with \`"rules": { "enabled": { "${rule.id}": false } }\` ([switches](switches.md)).`;
}

/** The funnel at a glance, then one section per stage and rule, in the order the build runs them. */
function ruleSections(anchors: Anchors): { overview: string[]; sections: string[] } {
  const overview = [...mdHeader(['#', 'stage', 'rule', 'unit', 'removes', 'switchable'])];
  const sections: string[] = [];
  let n = 0;
  for (const stage of STAGES) {
    const rules = RULES.filter((r) => r.stage === stage);
    if (rules.length === 0) continue;
    const stageHeading = `${sentence(stage).slice(0, -1)} (unit: ${rules[0].unit})`;
    anchors.next(stageHeading);
    sections.push(`### ${stageHeading}`, '');
    for (const rule of rules) {
      const heading = `\`${rule.id}\``;
      const anchor = anchors.next(heading);
      overview.push(
        mdRow([
          ++n,
          stage,
          `[${mdCode(rule.id)}](#${anchor})`,
          rule.unit,
          rule.description,
          rule.notSwitchable ? 'no' : 'yes',
        ]),
      );
      sections.push(
        `#### ${heading}`,
        '',
        `Removes: ${rule.description}. Stage ${stage}, unit ${rule.unit}. ${switchLine(rule)}`,
        ...parameterLines(rule),
        ...counterLines(countersOf(rule.id)),
        '',
      );
    }
  }
  return { overview, sections };
}

/** The generated part of docs/rules.md, markers included. */
export function rulesReference(): string {
  const anchors = new Anchors();
  for (const h of ['The funnel, generated', 'Every parameter']) anchors.next(h);
  const { overview, sections } = ruleSections(anchors);
  const groups = PARAMETER_GROUPS.flatMap((g) => [
    `#### ${g.id}`,
    '',
    `${sentence(g.description)}`,
    ...parameterLines(g),
    ...counterLines(countersOf(g.id)),
    '',
  ]);
  const ruleIds = new Set([...RULES.map((r) => r.id), ...PARAMETER_GROUPS.map((g) => g.id)]);
  const own = COUNTERS.filter((c: CounterDeclaration) => c.rule === undefined || !ruleIds.has(c.rule));
  return [
    REFERENCE_START,
    "<!-- Generated from the rules' declarations by `npm run docs`; edit those, not this part. -->",
    '',
    '## The funnel, generated',
    '',
    'Every rule in the order the build runs it. A unit is counted by the first rule that removes it.',
    '',
    ...overview,
    '',
    ...sections,
    '### Parameters no one rule owns',
    '',
    ...groups,
    '### Counters of the build itself',
    ...counterLines(own).slice(2),
    '',
    '## Every parameter',
    '',
    'All of `corpus.json` → `rules`, in the order of `schemas/corpus.schema.json`.',
    '',
    ...ruleParametersTable(),
    '',
    REFERENCE_END,
  ].join('\n');
}

/** `page` with its generated part replaced; undefined when the markers are missing. */
export function withRulesReference(page: string): string | undefined {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) return undefined;
  return page.slice(0, start) + rulesReference() + page.slice(end + REFERENCE_END.length);
}
