// The words for a rule the config switched off, in one place, with nothing imported (rules and views both read it).
/**
 * A rule the config leaves off (protected_comment, irrelevant_comment by default) decided nothing: it reads
 * "not counted" with this reason, which the tree leaves out (a node per window for a rule nobody turned on
 * says nothing about the host); the JSON, the CLI table, the webview and the card still list it.
 */
export const switchedOff = (setting: string, detail: string): string => `off: ${setting} is false (${detail})`;
export const isSwitchedOff = (reason: string | undefined): boolean => reason?.startsWith('off: ') === true;
