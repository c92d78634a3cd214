// The README's table of rule parameters, written from their declarations by `npm run schema`
// (scripts/generate-schema.mjs) between the markers below; a unit test fails when the README drifts.
import { mdCode, mdHeader, mdRow } from '../ground/text/markdown';
import { PARAMETER_OWNER, RULE_PARAMETERS, type RuleParameter } from './ruleParameters';

export const TABLE_START = '<!-- rule-parameters:start -->';
export const TABLE_END = '<!-- rule-parameters:end -->';

type AnyParameter = RuleParameter<number> | RuleParameter<boolean> | RuleParameter<string[]>;

function bounds(p: AnyParameter): string {
  if (p.type === 'boolean') return '—';
  if (p.type === 'array') return p.items.minLength > 0 ? 'non-empty strings' : '—';
  const out: string[] = [];
  if (p.minimum !== undefined) out.push(`≥ ${p.minimum}`);
  if (p.exclusiveMinimum !== undefined) out.push(`> ${p.exclusiveMinimum}`);
  if (p.maximum !== undefined) out.push(`≤ ${p.maximum}`);
  return out.join(', ') || '—';
}

const cellText = (text: string) => text.replace(/\|/g, '\\|');

/** The table's lines, markers included: one row per parameter, in the schema's order. */
export function ruleParametersTable(): string {
  const rows = Object.entries(RULE_PARAMETERS as Record<string, AnyParameter>).map(([name, p]) => {
    const owner = PARAMETER_OWNER.get(name)!;
    // A rule's id is code; a group's name is prose.
    const ownerCell = 'stage' in owner ? mdCode(owner.id, { inTable: true }) : cellText(owner.id);
    const type = p.type === 'array' ? 'list of strings' : p.type;
    return mdRow([
      mdCode(name, { inTable: true }),
      ownerCell,
      type,
      mdCode(JSON.stringify(p.default), { inTable: true }),
      bounds(p),
      cellText(p.description),
    ]);
  });
  const note = "<!-- Generated from the rules' declarations by `npm run schema`; edit those, not this table. -->";
  return [
    TABLE_START,
    note,
    '',
    ...mdHeader(['parameter', 'owner', 'type', 'default', 'bounds', 'meaning']),
    ...rows,
    '',
    TABLE_END,
  ].join('\n');
}

/** `readme` with its table replaced by the generated one; undefined when the markers are missing. */
export function withRuleParametersTable(readme: string): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(0, start) + ruleParametersTable() + readme.slice(end + TABLE_END.length);
}
