// The table of every rule parameter, written from their declarations into docs/rules.md (through
// rulesReference.ts, `npm run docs`); a unit test fails when the page drifts.
import { mdCode, mdHeader, mdRow } from '../ground/text/markdown';
import { PARAMETER_OWNER, RULE_PARAMETERS, type RuleParameter } from './ruleParameters';

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

const cellText = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** One parameter's cells: name, type, default, bounds, meaning. */
function parameterCells(name: string, p: AnyParameter): string[] {
  const type = p.type === 'array' ? 'list of strings' : p.type;
  return [
    mdCode(name, { inTable: true }),
    type,
    mdCode(JSON.stringify(p.default), { inTable: true }),
    bounds(p),
    cellText(p.description),
  ];
}

/** A table of the parameters named, without their owner (each rule's section of docs/rules.md). */
export function parametersTable(names: readonly string[]): string[] {
  const all = RULE_PARAMETERS as Record<string, AnyParameter>;
  return [
    ...mdHeader(['parameter', 'type', 'default', 'bounds', 'meaning']),
    ...names.map((n) => mdRow(parameterCells(n, all[n]))),
  ];
}

/** Every parameter, one row each in the schema's order, with the rule or group that owns it. */
export function ruleParametersTable(): string[] {
  const rows = Object.entries(RULE_PARAMETERS as Record<string, AnyParameter>).map(([name, p]) => {
    const owner = PARAMETER_OWNER.get(name)!;
    // A rule's id is code; a group's name is prose.
    const ownerCell = 'stage' in owner ? mdCode(owner.id, { inTable: true }) : cellText(owner.id);
    const [first, ...rest] = parameterCells(name, p);
    return mdRow([first, ownerCell, ...rest]);
  });
  return [...mdHeader(['parameter', 'owner', 'type', 'default', 'bounds', 'meaning']), ...rows];
}
