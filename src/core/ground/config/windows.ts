import { createHash } from 'node:crypto';
import type { CorpusStore } from '../store/corpusStore';
import { UserError } from '../store/errors';
import type { CorpusConfig, WindowConfig } from './types';

/** The window a change belongs to, by its created date ([from, to)); undefined when none. */
export function windowOf(windows: readonly WindowConfig[], createdIso: string): WindowConfig | undefined {
  const day = createdIso.slice(0, 10);
  return windows.find((w) => day >= w.from && day < w.to);
}

/** SHA-256 of a window's canonical definition; recorded when the window is sealed. */
export function windowHash(w: WindowConfig): string {
  return createHash('sha256')
    .update(JSON.stringify({ name: w.name, from: w.from, to: w.to }))
    .digest('hex');
}

export interface StoredWindow {
  name: string;
  from_date: string;
  to_date: string;
  sealed: number;
  seal_hash: string | null;
  sealed_at: string | null;
  unsealed_by: string | null;
  unsealed_at: string | null;
  fetched: number;
}

/**
 * Records the config's windows in the file. A window's seal is taken from the config the first time
 * it is seen; after that the file is the truth, changed only by sealWindow/unsealWindow.
 */
export function syncWindows(store: CorpusStore, config: CorpusConfig, now = new Date().toISOString()): void {
  for (const w of config.windows) {
    const existing = store.get<StoredWindow>('SELECT * FROM windows WHERE name = ?', [w.name]);
    if (!existing) {
      store.run(
        'INSERT INTO windows(name, from_date, to_date, sealed, seal_hash, sealed_at) VALUES (?, ?, ?, ?, ?, ?)',
        [w.name, w.from, w.to, w.sealed ? 1 : 0, w.sealed ? windowHash(w) : null, w.sealed ? now : null],
      );
    } else if (existing.from_date !== w.from || existing.to_date !== w.to) {
      if (existing.sealed)
        throw new UserError(`window "${w.name}" is sealed (hash ${existing.seal_hash}); its dates cannot change`);
      store.run('UPDATE windows SET from_date = ?, to_date = ? WHERE name = ?', [w.from, w.to, w.name]);
    }
  }
}

export function storedWindows(store: CorpusStore): StoredWindow[] {
  return store.all<StoredWindow>('SELECT * FROM windows ORDER BY from_date');
}

/** The config's windows with the seal state the file records. */
export function effectiveWindows(store: CorpusStore, config: CorpusConfig): WindowConfig[] {
  const stored = new Map(storedWindows(store).map((w) => [w.name, w]));
  return config.windows.map((w) => {
    const s = stored.get(w.name);
    return s ? { ...w, sealed: s.sealed === 1 } : w;
  });
}

export function sealWindow(store: CorpusStore, name: string, now = new Date().toISOString()): string {
  const w = store.get<StoredWindow>('SELECT * FROM windows WHERE name = ?', [name]);
  if (!w) throw new UserError(`no window named "${name}" in this corpus`);
  if (w.sealed) return w.seal_hash ?? '';
  if (w.fetched) throw new UserError(`window "${name}" has already been fetched and cannot be resealed`);
  const hash = windowHash({ name: w.name, from: w.from_date, to: w.to_date });
  store.run('UPDATE windows SET sealed = 1, seal_hash = ?, sealed_at = ? WHERE name = ?', [hash, now, name]);
  return hash;
}

/** Unsealing is explicit and recorded: who (a pseudonym) and when. */
export function unsealWindow(
  store: CorpusStore,
  name: string,
  byPseudonym: string,
  now = new Date().toISOString(),
): void {
  const w = store.get<StoredWindow>('SELECT * FROM windows WHERE name = ?', [name]);
  if (!w) throw new UserError(`no window named "${name}" in this corpus`);
  if (!w.sealed) throw new UserError(`window "${name}" is not sealed`);
  store.run('UPDATE windows SET sealed = 0, unsealed_by = ?, unsealed_at = ? WHERE name = ?', [byPseudonym, now, name]);
}
