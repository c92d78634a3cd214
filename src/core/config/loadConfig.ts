import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../store/errors';
import { DEFAULT_RULES, type CorpusConfig, type HostConfig, type RulesConfig, type WindowConfig } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

class ConfigError extends UserError {
  constructor(file: string, field: string, problem: string) {
    super(`${file}: ${field} ${problem}`);
  }
}

/** Reads and validates a corpus.json; every problem is one line naming the file and the field. */
export function loadCorpusConfig(file: string): CorpusConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`${file}: cannot read config (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  return validateCorpusConfig(raw, file);
}

/**
 * The config as it may be stored in a corpus file: bot account ids are account ids, so they stay
 * out (the fetch already recorded each account's bot status as `is_bot`).
 */
export function redactConfig(config: CorpusConfig): CorpusConfig {
  return { ...config, hosts: config.hosts.map(({ botAccounts: _ids, ...h }) => h) };
}

/** The corpus file named by a config: its `db`, resolved beside the config. */
export function corpusDbPath(configFile: string, config: CorpusConfig): string {
  return path.resolve(path.dirname(configFile), config.db);
}

export function validateCorpusConfig(raw: unknown, file = 'corpus.json'): CorpusConfig {
  const fail = (field: string, problem: string): never => { throw new ConfigError(file, field, problem); };
  const obj = (v: unknown, field: string): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(field, 'must be an object');
  const str = (v: unknown, field: string): string => (typeof v === 'string' && v.length > 0 ? v : fail(field, 'must be a non-empty string'));
  const date = (v: unknown, field: string): string => {
    const s = str(v, field);
    if (!DATE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`))) fail(field, `must be a date YYYY-MM-DD (got ${JSON.stringify(s)})`);
    return s;
  };
  const num = (v: unknown, field: string, min = 0): number =>
    typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fail(field, `must be a number ≥ ${min}`);

  const root = obj(raw, '(root)');
  const known = new Set(['$schema', 'name', 'db', 'start', 'salt', 'windows', 'hosts', 'rules', 'halves']);
  for (const key of Object.keys(root)) if (!known.has(key)) fail(key, 'is not a known field');

  const name = str(root.name, 'name');
  const db = root.db === undefined ? 'corpus.sqlite' : str(root.db, 'db');
  if (path.isAbsolute(db) || db.split(/[\\/]/).includes('..')) fail('db', 'must name a file beside the config');
  const start = date(root.start, 'start');
  const salt = obj(root.salt, 'salt');
  const saltEnv = str(salt.env, 'salt.env');

  if (!Array.isArray(root.windows) || root.windows.length === 0) fail('windows', 'must be a non-empty array');
  const windows: WindowConfig[] = (root.windows as unknown[]).map((w, i) => {
    const o = obj(w, `windows[${i}]`);
    const win: WindowConfig = { name: str(o.name, `windows[${i}].name`), from: date(o.from, `windows[${i}].from`), to: date(o.to, `windows[${i}].to`) };
    if (win.from >= win.to) fail(`windows[${i}].to`, `must be after from (${win.from})`);
    if (o.sealed !== undefined) {
      if (typeof o.sealed !== 'boolean') fail(`windows[${i}].sealed`, 'must be true or false');
      win.sealed = o.sealed as boolean;
    }
    return win;
  });
  const names = new Set<string>();
  windows.forEach((w, i) => {
    if (names.has(w.name)) fail(`windows[${i}].name`, `repeats window "${w.name}"`);
    names.add(w.name);
  });
  const sorted = [...windows].sort((a, b) => a.from.localeCompare(b.from));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].from < sorted[i - 1].to) fail(`windows`, `"${sorted[i - 1].name}" and "${sorted[i].name}" overlap`);
  }

  if (!Array.isArray(root.hosts) || root.hosts.length === 0) fail('hosts', 'must be a non-empty array');
  const hosts: HostConfig[] = (root.hosts as unknown[]).map((h, i) => {
    const o = obj(h, `hosts[${i}]`);
    const url = str(o.url, `hosts[${i}].url`);
    let parsed: URL | undefined;
    try { parsed = new URL(url); } catch { /* reported below */ }
    if (!parsed || !/^https?:$/.test(parsed.protocol)) fail(`hosts[${i}].url`, `must be an http(s) URL (got ${JSON.stringify(url)})`);
    const host: HostConfig = {
      org: str(o.org, `hosts[${i}].org`),
      url: url.replace(/\/+$/, ''),
      query: o.query === undefined ? 'status:merged' : str(o.query, `hosts[${i}].query`),
      minIntervalMs: num(o.minIntervalMs, `hosts[${i}].minIntervalMs`),
    };
    if (!/^[A-Za-z0-9_.-]+$/.test(host.org)) fail(`hosts[${i}].org`, 'may hold only letters, digits, "_", "." and "-"');
    if (o.botAccounts !== undefined) {
      if (!Array.isArray(o.botAccounts) || !o.botAccounts.every((n) => Number.isInteger(n))) fail(`hosts[${i}].botAccounts`, 'must be an array of account ids');
      host.botAccounts = o.botAccounts as number[];
    }
    if (o.botTemplates !== undefined) {
      if (!Array.isArray(o.botTemplates)) fail(`hosts[${i}].botTemplates`, 'must be an array of regexes');
      host.botTemplates = (o.botTemplates as unknown[]).map((t, j) => {
        const field = `hosts[${i}].botTemplates[${j}]`;
        const s = str(t, field);
        try { new RegExp(s); } catch (e) { fail(field, `is not a valid regex (${(e as Error).message})`); }
        return s;
      });
    }
    if (o.pageSize !== undefined) host.pageSize = num(o.pageSize, `hosts[${i}].pageSize`, 1);
    return host;
  });
  hosts.forEach((h, i) => {
    if (hosts.findIndex((o) => o.org === h.org) !== i) fail(`hosts[${i}].org`, `repeats organization "${h.org}"`);
  });

  const rules = validateRules(root.rules === undefined ? {} : obj(root.rules, 'rules'), fail);
  const config: CorpusConfig = { name, db, start, salt: { env: saltEnv }, windows, hosts, rules };
  if (root.halves !== undefined) {
    const h = obj(root.halves, 'halves');
    const by = h.by;
    if (by !== 'projects' && by !== 'hash') fail('halves.by', 'must be "projects" or "hash"');
    const window = str(h.window ?? 'train', 'halves.window');
    if (!names.has(window)) fail('halves.window', `names no window ("${window}")`);
    config.halves = { window, by: by as 'projects' | 'hash' };
    if (h.salt !== undefined) config.halves.salt = str(h.salt, 'halves.salt');
    if (by === 'projects') {
      for (const side of ['a', 'b'] as const) {
        const list = h[side];
        if (!Array.isArray(list) || !list.every((p) => typeof p === 'string')) fail(`halves.${side}`, 'must be an array of project names');
        config.halves[side] = list as string[];
      }
    }
  }
  return config;
}

function validateRules(o: Record<string, unknown>, fail: (field: string, problem: string) => never): RulesConfig {
  const rules: RulesConfig = { ...DEFAULT_RULES, acknowledgements: [...DEFAULT_RULES.acknowledgements] };
  for (const [key, value] of Object.entries(o)) {
    if (!(key in DEFAULT_RULES)) fail(`rules.${key}`, 'is not a known rule setting');
    const def = (DEFAULT_RULES as unknown as Record<string, unknown>)[key];
    if (Array.isArray(def)) {
      if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) fail(`rules.${key}`, 'must be an array of strings');
    } else if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      fail(`rules.${key}`, 'must be a number ≥ 0');
    }
    (rules as unknown as Record<string, unknown>)[key] = value;
  }
  if (rules.nearDuplicateJaccard > 1) fail('rules.nearDuplicateJaccard', 'must be between 0 and 1');
  if (rules.lshBands * rules.lshRows > rules.minhashPermutations) fail('rules.lshBands', `× lshRows must not exceed minhashPermutations (${rules.minhashPermutations})`);
  return rules;
}
