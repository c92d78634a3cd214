// Canonical JSON and SHA-256, so a config, a rules version and a corpus hash the same whatever the
// key order or insertion order that produced them.
import { createHash } from 'node:crypto';
import type { CorpusConfig } from '../config/types';

/** Bump when a rule's code changes what it decides, so the rules version changes with it. */
// rules-code-2: not_merged; suggested_edit also reads fix_suggestions; unchanged_around ignores
// due_to_rebase edits and reads a range ending at character 0 as ending on the line before.
export const RULES_CODE_VERSION = 'rules-code-2';

/** JSON with object keys sorted at every level; undefined members dropped, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function configHash(config: CorpusConfig): string {
  return sha256(canonicalJson(config));
}

/**
 * The rules version: the rules config, every host's bot templates and the start date (the settings
 * the rules read), plus RULES_CODE_VERSION for the rules' code.
 */
export function rulesVersion(config: CorpusConfig): string {
  const botTemplates = Object.fromEntries([...config.hosts].sort((a, b) => a.org.localeCompare(b.org)).map((h) => [h.org, h.botTemplates ?? []]));
  return sha256(canonicalJson({ code: RULES_CODE_VERSION, rules: config.rules, botTemplates, start: config.start }));
}
