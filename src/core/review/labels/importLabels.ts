// `review-corpus labels import`: a rater's labels from JSONL ({example_key, label} per line), checked
// line by line before anything is written, then stored in one transaction (all or nothing). A model
// rater is named by its model id; a human rater only ever by a pseudonym, as the inspector stores one.
import { containsEmailAddress } from '../../gerrit/pseudonymize';
import { localUserPseudonym } from '../../ground/privacy/localUser';
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { jsonlObjects, readInputFile } from '../../ground/text/jsonlInput';
import { LABELS, setLabel, type Label } from './labels';

export type RaterKind = 'model' | 'human';

export interface ImportedLabel {
  line: number;
  exampleKey: string;
  label: Label;
}

const FIELDS = ['example_key', 'label'];

/** What the inspector stores for a local human rater (localUserPseudonym). */
export const HUMAN_PSEUDONYM = /^r_[0-9a-f]{16}$/;

export function parseRaterLabels(text: string, file: string): ImportedLabel[] {
  const out: ImportedLabel[] = [];
  const lineOf = new Map<string, number>();
  for (const { line, at, value: o } of jsonlObjects(text, {
    at: (n) => `${file}: line ${n}`,
    object: '{"example_key": …, "label": …}',
    fields: FIELDS,
  })) {
    if (typeof o.example_key !== 'string' || o.example_key === '')
      throw new UserError(`${at}: "example_key" is required, a non-empty string`);
    if (!LABELS.includes(o.label as Label))
      throw new UserError(
        `${at}: label ${JSON.stringify(o.label ?? null)} is not one of ${LABELS.join(', ')} ("answers": the rewrite answers its comment)`,
      );
    const seen = lineOf.get(o.example_key);
    if (seen !== undefined)
      throw new UserError(`${at}: example_key "${o.example_key}" is labelled twice (first on line ${seen})`);
    lineOf.set(o.example_key, line);
    out.push({ line, exampleKey: o.example_key, label: o.label as Label });
  }
  if (out.length === 0) throw new UserError(`${file}: holds no label`);
  return out;
}

export function readRaterLabels(file: string): ImportedLabel[] {
  return parseRaterLabels(readInputFile(file, 'labels file'), file);
}

/**
 * The name stored for a rater. A model keeps its model id (never an e-mail address). A human keeps a
 * pseudonym: one already in the inspector's form (r_ + 16 hex) as is, any other name replaced by the
 * pseudonym the inspector would store for that user name with this salt, so no name reaches the file.
 */
export function storedRaterName(name: string, kind: RaterKind, salt: () => string): string {
  const n = name.trim();
  if (n === '' || n.length > 200 || /[\s\p{C}]/u.test(n))
    throw new UserError(
      `labels import: --rater ${JSON.stringify(name)}: a name of 1 to 200 characters without spaces or control characters`,
    );
  if (kind === 'model') {
    if (containsEmailAddress(n))
      throw new UserError(
        `labels import: --rater ${JSON.stringify(name)} looks like an e-mail address, not a model id`,
      );
    if (HUMAN_PSEUDONYM.test(n))
      throw new UserError(`labels import: --rater ${n} is a human rater's pseudonym, not a model id`);
    return n;
  }
  return HUMAN_PSEUDONYM.test(n) ? n : localUserPseudonym(salt(), n);
}

/** A rater's kind: as imported, else human (the inspector records only the local user's pseudonym). */
export function raterKinds(store: CorpusStore): Map<string, RaterKind> {
  return new Map(
    store.all<{ name: string; kind: RaterKind }>('SELECT name, kind FROM label_raters').map((r) => [r.name, r.kind]),
  );
}

export interface ImportResult {
  rater: string;
  kind: RaterKind;
  added: number;
  changed: number;
  unchanged: number;
}

/**
 * Stores `labels` under `rater` after checking that every example key is an example of the file; a
 * label the rater gave before is replaced. Call inside a transaction: a failure writes nothing.
 */
export function importRaterLabels(
  store: CorpusStore,
  rater: string,
  kind: RaterKind,
  labels: readonly ImportedLabel[],
  file: string,
  at = new Date().toISOString(),
): ImportResult {
  const known = store.get<{ kind: RaterKind }>('SELECT kind FROM label_raters WHERE name = ?', [rater]);
  const inspectorLabels = Number(store.scalar('SELECT count(*) FROM labels WHERE rater = ?', [rater]));
  if (known && known.kind !== kind)
    throw new UserError(
      `labels import: rater ${rater} is recorded as a ${known.kind} rater; ${kind === 'model' ? 'drop --model' : 'add --model'} or name another rater`,
    );
  if (!known && kind === 'model' && inspectorLabels > 0)
    throw new UserError(
      `labels import: rater ${rater} already labelled in the inspector, so is a human rater, not a model`,
    );
  for (const l of labels) {
    const exists = store.scalar('SELECT 1 FROM examples WHERE example_key = ? LIMIT 1', [l.exampleKey]);
    if (exists === undefined || exists === null)
      throw new UserError(`${file}: line ${l.line}: example_key "${l.exampleKey}" is no example of ${store.file}`);
  }
  const before = new Map(
    store
      .all<{ example_key: string; label: string }>('SELECT example_key, label FROM labels WHERE rater = ?', [rater])
      .map((r) => [r.example_key, r.label]),
  );
  const result: ImportResult = { rater, kind, added: 0, changed: 0, unchanged: 0 };
  if (!known) store.run('INSERT INTO label_raters(name, kind, added_at) VALUES (?, ?, ?)', [rater, kind, at]);
  for (const l of labels) {
    const was = before.get(l.exampleKey);
    if (was === l.label) {
      result.unchanged++;
      continue;
    }
    if (was === undefined) result.added++;
    else result.changed++;
    setLabel(store, l.exampleKey, rater, l.label, at);
  }
  return result;
}
