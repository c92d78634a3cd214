// The config hash and the rules version: what a build records of the config and the rules it ran.
import { canonicalJson, sha256 } from '../../ground/text/canonicalJson';
import type { CorpusConfig, RulesConfig } from '../../ground/config/types';
import { RULE_PARAMETERS } from '../../rules/ruleParameters';
import {
  crossWindowMatchSettings,
  crossWindowProtected,
  crossWindowSettings,
  sameAsRegisteredPolicy,
} from '../../rules/decontam/crossWindow';

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
  // decontam only while cross-window decontamination is on: off is what a config without it means, and hashes as one did.
  const { card: _card, judge: _judge, decontam: _decontam, ...built } = config;
  const crossWindow = crossWindowSettings(config);
  return sha256(
    canonicalJson({
      ...built,
      rules: hashedRules(config.rules),
      ...(crossWindow.enabled ? { decontam: { crossWindow } } : {}),
    }),
  );
}

/**
 * The rules version: the rules config (switches included), every host's bot templates and the start
 * date (the settings the rules read), plus RULES_CODE_VERSION for the rules' code. protected_overlap
 * also reads the registered reference sets and which windows protect train: they change what a build
 * removes as much as a threshold does, so each set's name and SHA-256 and the protected windows' names
 * are in it too, and `diff` and `verify` can tell a build made before `protect` from one made after.
 * (The sets appear only when some are registered, so a corpus without any keeps the version it would
 * have.) The windows are none while decontam.crossWindow is off; its policy appears only when it is not
 * the registered sets' (which every build before decontam.crossWindow used), so such a build keeps its version.
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
  const crossWindow = crossWindowSettings(config);
  const automatic = crossWindowProtected(
    crossWindow,
    config.windows.map((w) => w.name),
  );
  const crossWindowPolicy =
    automatic.length && !sameAsRegisteredPolicy(crossWindow, config.rules)
      ? crossWindowMatchSettings(crossWindow)
      : undefined;
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
      crossWindowPolicy,
      irrelevantComment: irrelevant,
    }),
  );
}

/**
 * The rules as hashed: targetInCommentMinChars only when it is not its default, so a config that
 * leaves it out (every corpus before it was a parameter) hashes as it did; any other value changes both
 * hashes. Of `enabled`, only the rules switched off: absent or true is on, and hashes as a config
 * without switches did.
 */
function hashedRules(rules: RulesConfig): Partial<RulesConfig> {
  const { targetInCommentMinChars, enabled, ...rest } = rules;
  const off = Object.entries(enabled ?? {}).filter(([, on]) => on === false);
  return {
    ...rest,
    ...(targetInCommentMinChars !== RULE_PARAMETERS.targetInCommentMinChars.default ? { targetInCommentMinChars } : {}),
    ...(off.length ? { enabled: Object.fromEntries(off) } : {}),
  };
}
