// `rules.enabled` in corpus.json: every rule of the funnel by id, false to switch it off. Generated from
// the funnel's rules, so a new rule is switchable (or says why not) without another list: a rule that
// cannot be switched declares why beside its decide() (`notSwitchable`), and the schema takes that
// clause as its error message ("rules.enabled.nothing_left cannot be switched off: …").
import { RULES } from './funnel';
import type { RulesConfig } from '../ground/config/types';
import { isRuleOff } from './switchedOff';

/** Every rule id once, in funnel order, with its descriptions and why it cannot be switched (if it cannot). */
function ruleIds(): { id: string; descriptions: string[]; notSwitchable: string[] }[] {
  const byId = new Map<string, { id: string; descriptions: string[]; notSwitchable: string[] }>();
  for (const r of RULES) {
    let entry = byId.get(r.id);
    if (!entry) byId.set(r.id, (entry = { id: r.id, descriptions: [], notSwitchable: [] }));
    entry.descriptions.push(r.description);
    if (r.notSwitchable && !entry.notSwitchable.includes(r.notSwitchable)) entry.notSwitchable.push(r.notSwitchable);
  }
  return [...byId.values()];
}

/** The ids `rules.enabled` may set false, in funnel order. */
export const SWITCHABLE_RULES: readonly string[] = ruleIds()
  .filter((r) => r.notSwitchable.length === 0)
  .map((r) => r.id);

/** The JSON Schema of `rules.enabled`: a boolean per switchable rule, `true` only (with why) for the others. */
export function ruleSwitchesSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const r of ruleIds()) {
    const what = r.descriptions.join('; ');
    properties[r.id] = r.notSwitchable.length
      ? {
          const: true,
          errorMessage: `cannot be switched off: ${r.notSwitchable.join('; ')}`,
          description: `${r.id} (${what}) cannot be switched off: ${r.notSwitchable.join('; ')}.`,
        }
      : { type: 'boolean', description: `false switches ${r.id} off (${what}); its funnel rows read "off".` };
  }
  return {
    type: 'object',
    additionalProperties: false,
    description:
      'Rule id → false switches that rule off: it decides nothing, its funnel rows read "off" (never 0), and the switch is in the config hash, the rules version and the dataset card. Absent or true: on.',
    properties,
  };
}

/** The rules `rules` switches off, in funnel order. */
export function switchedOffRules(rules: Pick<RulesConfig, 'enabled'>): string[] {
  return rules.enabled === undefined ? [] : SWITCHABLE_RULES.filter((id) => isRuleOff(rules.enabled, id));
}
