// What a validated corpus.json says beyond its fields: where it came from, where its corpus file is,
// and what of it may be stored. Below the rules, so the fetch can use it without reading the schema.
import path from 'node:path';
import type { CorpusConfig } from './types';

/**
 * The config as it may be stored in a corpus file: bot account ids are account ids, so they stay
 * out (the fetch already recorded each account's bot status as `is_bot`), and so does the contact
 * (a person's e-mail address, which the build never needs). Bot-name patterns stay: they are the
 * config's, not any account's, and each account that one made a bot stores it anyway (bot_pattern).
 */
export function redactConfig(config: CorpusConfig): CorpusConfig {
  const { contact: _contact, ...rest } = config;
  return { ...rest, hosts: config.hosts.map(({ botAccounts: _ids, ...h }) => h) };
}

/** The corpus file named by a config: its `db`, resolved beside the config. */
export function corpusDbPath(configFile: string, config: CorpusConfig): string {
  return path.resolve(path.dirname(configFile), config.db);
}

const SOURCES = new WeakMap<CorpusConfig, string>();

/** The file (or label) a config was validated as, for messages about it made later (e.g. at fetch). */
export function configSource(config: CorpusConfig): string {
  return SOURCES.get(config) ?? 'corpus.json';
}

/** Remembers the file a config was validated as (the validation in rules/corpusJson/loadConfig.ts). */
export function recordConfigSource(config: CorpusConfig, file: string): void {
  SOURCES.set(config, file);
}
