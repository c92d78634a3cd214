// The words for a rule the config switched off, in one place, with nothing imported (rules and views both read it).
/**
 * A rule the config leaves off (protected_comment, irrelevant_comment by default, any rule set false in
 * `rules.enabled`) decided nothing: it reads "off" with this reason, which the tree leaves out (a node per
 * window for a rule nobody turned on says nothing about the host); the JSON, the CLI table, the webview
 * and the card still list it.
 */
export const switchedOff = (setting: string, detail: string): string => `off: ${setting} is false (${detail})`;
export const isSwitchedOff = (reason: string | undefined): boolean => reason?.startsWith('off: ') === true;

/** What a funnel row's removed count reads as: "off" for a switched-off rule, "not counted" for another gap. */
export const notCountedCell = (reason: string | undefined): string => (isSwitchedOff(reason) ? 'off' : 'not counted');

/** Whether `rules.enabled` switches rule `id` off (absent or true: on). */
export const isRuleOff = (enabled: Readonly<Record<string, boolean>> | undefined, id: string): boolean =>
  enabled?.[id] === false;

/** Why a rule set false in `rules.enabled` reads "off". */
export const ruleOffReason = (id: string): string => switchedOff(`rules.enabled.${id}`, 'set in corpus.json');

/** A not-counted row's note: "off: <rule>: <setting> is false (…)", or "not counted: <rule>: <why>". */
export const notCountedNote = (rule: string, reason: string): string =>
  isSwitchedOff(reason) ? `off: ${rule}: ${reason.slice('off: '.length)}` : `not counted: ${rule}: ${reason}`;
