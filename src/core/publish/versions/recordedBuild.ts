// What funnel, export and verify say when the build they read is not what this code would build now:
// they read (or write out) what the file recorded, and never rebuild silently.
import type { CorpusStore } from '../../ground/store/corpusStore';
import { configHash, rulesVersion } from '../../build/stages/hashing';
import { recordedConfig, storedConfig } from '../../build/stages/loadCorpus';
import { protectedSets } from '../../rules/decontam/referenceSets';
import { UserError } from '../../ground/store/errors';
import { buildLabel } from './tags';

export interface RecordedVersions {
  buildId: number;
  recorded: string;
  /** What a build from the stored config by this code would record. */
  current: string;
  /** The stored config has changed since the build too (its hash differs). */
  configChanged: boolean;
  /** The build recorded its own config, and `current` is built from it. */
  configRecorded: boolean;
}

/** The build's rules version against this code's for the stored config; undefined when they agree. */
export function staleRulesVersion(store: CorpusStore, buildId: number): RecordedVersions | undefined {
  const b = store.get<{ rules_version: string; config_hash: string }>(
    'SELECT rules_version, config_hash FROM builds WHERE id = ?',
    [buildId],
  );
  if (!b) return undefined;
  let config;
  let recorded;
  try {
    // The config the build recorded; a build written before builds recorded theirs: the stored one.
    recorded = recordedConfig(store, buildId);
    if (!recorded && store.getMeta('config') === undefined) return undefined;
    config = recorded ?? storedConfig(store);
  } catch {
    return undefined; // a stored config this code cannot read: the commands that need it say so themselves
  }
  const current = rulesVersion(config, protectedSets(store));
  if (current === b.rules_version) return undefined;
  return {
    buildId,
    recorded: b.rules_version,
    current,
    configChanged: configHash(config) !== b.config_hash,
    configRecorded: recorded !== undefined,
  };
}

/** One plain line, e.g. `build 4 (v3) has rules version 1a2b…, this code builds 9f8e… from the stored config: …`. */
export function staleRulesLine(store: CorpusStore, v: RecordedVersions, doing: string): string {
  const why = v.configRecorded
    ? "the rules' code changed since"
    : v.configChanged
      ? "the rules' code or the stored config changed since"
      : "the rules' code changed since (the stored config is the same)";
  const from = v.configRecorded ? 'the config the build recorded' : 'the stored config';
  return `${buildLabel(store, v.buildId)} has rules version ${v.recorded.slice(0, 12)}, this code builds ${v.current.slice(0, 12)} from ${from} (${why}): ${doing}`;
}

/**
 * `buildId`, if the file still holds its example rows: the latest build's and every tagged build's are
 * kept; a later build pruned the others' (their decisions stay, for `diff`).
 */
export function requireRecordedExamples(store: CorpusStore, buildId: number): number {
  const kept = Number(
    store.scalar("SELECT count(*) FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'", [
      buildId,
    ]),
  );
  if (kept > 0 && !store.get('SELECT 1 AS x FROM examples WHERE build_id = ? LIMIT 1', [buildId])) {
    throw new UserError(
      `${buildLabel(store, buildId)}: its examples are no longer in ${store.file} (a later build pruned them; only the latest build and tagged builds keep theirs)`,
    );
  }
  return buildId;
}
