// The config hash and the rules version: what a build records of the config and the rules it ran.
import { canonicalJson, sha256 } from '../../ground/text/canonicalJson';
import type { CorpusConfig, RulesConfig } from '../../ground/config/types';
import { RULE_PARAMETERS } from '../../rules/ruleParameters';
import { automaticWindows } from '../../rules/decontam/decontaminate';

/** Bump when a rule's code changes what it decides, so the rules version changes with it. */
// rules-code-2: not_merged; suggested_edit also reads fix_suggestions; unchanged_around ignores
// due_to_rebase edits and reads a range ending at character 0 as ending on the line before.
// rules-code-3: blocklisted_project and protected_overlap (decontamination).
// rules-code-4: protected_comment (comment-level decontamination, off by default).
export const RULES_CODE_VERSION = 'rules-code-4';

/**
 * The whole config as stored. A host's bot-name patterns are in it (they name bots, not people, and
 * they changed what the fetch stored), but not in the rules version: they decide at fetch, like
 * botAccounts, and the build reads only each account's stored decision, so a rebuild cannot change them.
 */
export function configHash(config: CorpusConfig): string {
  // Less the dataset card's text (license, language, title): it decides nothing, and a config without one hashes as before.
  // The judge section neither: its endpoint, key variable and prices decide nothing; its one rule is in rulesVersion.
  const { card: _card, judge: _judge, ...built } = config;
  return sha256(canonicalJson({ ...built, rules: hashedRules(config.rules) }));
}

/**
 * The rules version: the rules config, every host's bot templates and the start date (the settings
 * the rules read), plus RULES_CODE_VERSION for the rules' code. protected_overlap also reads the
 * registered reference sets and which windows protect train: they change what a build removes as
 * much as a threshold does, so each set's name and SHA-256 and the automatic windows' names are in it
 * too, and `diff` and `verify` can tell a build made before `protect` from one made after. (The sets
 * appear only when some are registered, so a corpus without any keeps the version it would have.)
 */
export function rulesVersion(
  config: CorpusConfig,
  protectedSets: readonly { name: string; sha256: string }[] = [],
): string {
  const botTemplates = Object.fromEntries(
    [...config.hosts].sort((a, b) => a.org.localeCompare(b.org)).map((h) => [h.org, h.botTemplates ?? []]),
  );
  const sets = protectedSets.length
    ? [...protectedSets].sort((a, b) => (a.name < b.name ? -1 : 1)).map((s) => ({ name: s.name, sha256: s.sha256 }))
    : undefined;
  const automatic = automaticWindows(config.windows.map((w) => w.name));
  // irrelevant_comment, only when on (so a corpus without it keeps its version): its threshold and whose judgments it reads.
  const j = config.judge;
  const irrelevant = j?.irrelevantComment ? { below: j.thresholds.irrelevantBelow, model: j.model ?? null } : undefined;
  return sha256(
    canonicalJson({
      code: RULES_CODE_VERSION,
      rules: hashedRules(config.rules),
      botTemplates,
      start: config.start,
      protectedSets: sets,
      protectedWindows: automatic,
      irrelevantComment: irrelevant,
    }),
  );
}

/**
 * The rules as hashed: targetInCommentMinChars only when it is not its default, so a config that
 * leaves it out (every corpus before it was a parameter) hashes as it did; any other value changes both hashes.
 */
function hashedRules(rules: RulesConfig): Partial<RulesConfig> {
  if (rules.targetInCommentMinChars !== RULE_PARAMETERS.targetInCommentMinChars.default) return rules;
  const { targetInCommentMinChars: _default, ...rest } = rules;
  return rest;
}
