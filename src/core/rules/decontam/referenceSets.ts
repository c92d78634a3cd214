// Protected reference sets: read from JSONL, hashed, and stored whole in the corpus file (tables
// protected_sets, protected_items, protected_set_events), so a rebuild needs nothing but the file.
// A line is {"id": …, "before"?: …, "after"?: …, "comment"?: …}: another benchmark's test split, say.
import { canonicalJson, sha256 } from '../../ground/text/canonicalJson';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { jsonlObjects, readInputFile } from '../../ground/text/jsonlInput';
import type { ReferenceText } from './matcher';

export interface ReferenceItem {
  id: string;
  before?: string;
  after?: string;
  comment?: string;
}

export interface ProtectedSetInfo {
  name: string;
  sha256: string;
  items: number;
  registered_at: string;
}

/** A set name: what the evidence and the card show, so plain: letters, digits, ".", "_", "-" (not "window:…", kept for the automatic sets). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const FIELDS = ['id', 'before', 'after', 'comment'];

export function checkSetName(name: string): string {
  if (!NAME.test(name))
    throw new UserError(
      `protect: --name ${JSON.stringify(name)}: a set name is 1–100 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  return name;
}

/** Parses a reference file's text; every problem is one line naming the file, the line and the field. */
export function parseReferences(text: string, file: string): ReferenceItem[] {
  const items: ReferenceItem[] = [];
  const lineOf = new Map<string, number>();
  for (const { line, at, value: o } of jsonlObjects(text, {
    at: (n) => `${file}:${n}`,
    object: '{id, before?, after?, comment?}',
    fields: FIELDS,
  })) {
    if (typeof o.id !== 'string' && typeof o.id !== 'number')
      throw new UserError(`${at}: "id" is required, a string or a number`);
    const id = String(o.id);
    if (id === '') throw new UserError(`${at}: "id" must not be empty`);
    const item: ReferenceItem = { id };
    for (const f of ['before', 'after', 'comment'] as const) {
      if (o[f] === undefined || o[f] === null) continue;
      if (typeof o[f] !== 'string') throw new UserError(`${at}: "${f}" must be a string`);
      item[f] = o[f] as string;
    }
    if (item.before === undefined && item.after === undefined && item.comment === undefined)
      throw new UserError(`${at}: item "${id}" has none of before, after, comment`);
    const seen = lineOf.get(id);
    if (seen !== undefined) throw new UserError(`${at}: duplicate id "${id}" (first on line ${seen})`);
    lineOf.set(id, line);
    items.push(item);
  }
  if (items.length === 0) throw new UserError(`${file}: holds no reference items`);
  return items;
}

export function readReferenceFile(file: string): ReferenceItem[] {
  return parseReferences(readInputFile(file, 'reference file'), file);
}

/**
 * SHA-256 of a set: one canonical JSON line per item, in id order. The same items give the same hash
 * whatever the file's line order, key order or line endings.
 */
export function referenceSetHash(items: readonly ReferenceItem[]): string {
  const sorted = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256(
    sorted.map((i) => canonicalJson({ id: i.id, before: i.before, after: i.after, comment: i.comment })).join('\n'),
  );
}

/**
 * Stores a set under `name`, with its hash and time, and records the event. A name already registered
 * is replaced only when `replace` is set (recorded as 'replaced'); otherwise a one-line error.
 * Call inside a transaction.
 */
export function registerReferenceSet(
  store: CorpusStore,
  name: string,
  items: readonly ReferenceItem[],
  opts: { replace?: boolean; at?: string } = {},
): ProtectedSetInfo {
  checkSetName(name);
  const at = opts.at ?? new Date().toISOString();
  const hash = referenceSetHash(items);
  const existing = store.get<{ sha256: string; registered_at: string }>(
    'SELECT sha256, registered_at FROM protected_sets WHERE name = ?',
    [name],
  );
  if (existing && !opts.replace) {
    throw new UserError(
      `protect: a set named "${name}" is registered already (sha256 ${existing.sha256.slice(0, 12)}…, ${existing.registered_at}); --replace replaces it`,
    );
  }
  store.run('DELETE FROM protected_items WHERE set_name = ?', [name]);
  store.run('DELETE FROM protected_sets WHERE name = ?', [name]);
  store.run('INSERT INTO protected_sets(name, sha256, items, registered_at) VALUES (?, ?, ?, ?)', [
    name,
    hash,
    items.length,
    at,
  ]);
  const insert = store.prepare(
    'INSERT INTO protected_items(set_name, item_id, before_text, after_text, comment) VALUES (?, ?, ?, ?, ?)',
  );
  for (const i of items) insert.run([name, i.id, i.before ?? null, i.after ?? null, i.comment ?? null]);
  store.run('INSERT INTO protected_set_events(name, action, sha256, items, at) VALUES (?, ?, ?, ?, ?)', [
    name,
    existing ? 'replaced' : 'registered',
    hash,
    items.length,
    at,
  ]);
  return { name, sha256: hash, items: items.length, registered_at: at };
}

/** The registered sets, by name. */
export function protectedSets(store: CorpusStore): ProtectedSetInfo[] {
  return store.all<ProtectedSetInfo>('SELECT name, sha256, items, registered_at FROM protected_sets ORDER BY name');
}

/** Every text of every registered set, in (set, id) order: what protected_overlap matches against. */
export function protectedTexts(store: CorpusStore): ReferenceText[] {
  const out: ReferenceText[] = [];
  store.each(
    'SELECT set_name, item_id, before_text, after_text, comment FROM protected_items ORDER BY set_name, item_id',
    [],
    (r) => {
      const base = { set: String(r.set_name), id: String(r.item_id) };
      if (r.before_text !== null) out.push({ ...base, field: 'before', text: String(r.before_text) });
      if (r.after_text !== null) out.push({ ...base, field: 'after', text: String(r.after_text) });
      if (r.comment !== null) out.push({ ...base, field: 'comment', text: String(r.comment) });
    },
  );
  return out;
}
