// Builds frozen under a name (`review-corpus tag`, "Tag Build…"): the tag records the build's versions,
// is never moved, and keeps the build's examples through later rebuilds (writeBuild prunes the others),
// so `export --build v3` writes what the file recorded for v3 (docs/frozen-builds.md: a frozen build stands as the record).
import type { CorpusStore } from '../../ground/store/corpusStore';
import { UserError } from '../../ground/store/errors';
import { visibleEscapes } from '../../ground/text/visibleEscapes';

export interface BuildTag {
  name: string;
  build_id: number;
  rules_version: string;
  config_hash: string;
  corpus_hash: string | null;
  tagged_at: string;
}

/** Letters, digits, `.`, `_`, `-`; not all digits, which would read as a build id. */
const TAG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `name` cannot tag a build of `store` (a bad name, or one already taken), as one line; undefined if it can. */
export function tagNameProblem(store: CorpusStore, name: string): string | undefined {
  const shown = `"${visibleEscapes(name.length > 70 ? `${name.slice(0, 70)}…` : name)}"`;
  if (!TAG_NAME.test(name))
    return `tag name ${shown}: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
  if (/^\d+$/.test(name))
    return `tag name ${shown}: a name of digits only would read as a build id; add a letter (e.g. "v${name}")`;
  const taken = store.get<{ build_id: number }>('SELECT build_id FROM build_tags WHERE name = ?', [name]);
  if (taken)
    return `tag name ${shown} already names build ${taken.build_id}; a tag is never moved, choose another name`;
  return undefined;
}

/** Freezes build `buildId` under `name`. Throws a one-line UserError for a bad or taken name or a build that cannot be frozen. */
export function tagBuild(store: CorpusStore, buildId: number, name: string, at = new Date().toISOString()): BuildTag {
  const problem = tagNameProblem(store, name);
  if (problem) throw new UserError(problem);
  const b = store.get<{
    rules_version: string;
    config_hash: string;
    corpus_hash: string | null;
    finished_at: string | null;
  }>('SELECT rules_version, config_hash, corpus_hash, finished_at FROM builds WHERE id = ?', [buildId]);
  if (!b || b.finished_at === null)
    throw new UserError(
      `build ${buildId}: no such finished build in ${store.file} (builds: ${finishedBuilds(store).join(', ') || 'none'})`,
    );
  // A tag promises `export --build <name>` works: a build whose examples a later rebuild pruned cannot keep that promise.
  if (
    !store.get('SELECT 1 AS x FROM examples WHERE build_id = ? LIMIT 1', [buildId]) &&
    keptExamples(store, buildId) > 0
  ) {
    throw new UserError(
      `build ${buildId}: its examples were pruned by a later build (only the latest build and tagged builds keep them); tag a build before rebuilding`,
    );
  }
  const tag: BuildTag = {
    name,
    build_id: buildId,
    rules_version: b.rules_version,
    config_hash: b.config_hash,
    corpus_hash: b.corpus_hash,
    tagged_at: at,
  };
  store.run(
    'INSERT INTO build_tags(name, build_id, rules_version, config_hash, corpus_hash, tagged_at) VALUES (?, ?, ?, ?, ?, ?)',
    [tag.name, tag.build_id, tag.rules_version, tag.config_hash, tag.corpus_hash, tag.tagged_at],
  );
  return tag;
}

function keptExamples(store: CorpusStore, buildId: number): number {
  return Number(
    store.scalar("SELECT count(*) FROM decisions WHERE build_id = ? AND unit = 'examples' AND rule = 'kept'", [
      buildId,
    ]),
  );
}

function finishedBuilds(store: CorpusStore): number[] {
  return store
    .all<{ id: number }>('SELECT id FROM builds WHERE finished_at IS NOT NULL ORDER BY id')
    .map((r) => Number(r.id));
}

export function buildTags(store: CorpusStore): BuildTag[] {
  return store.all<BuildTag>('SELECT * FROM build_tags ORDER BY build_id, tagged_at, name');
}

/** Tag names per build id, for pickers and the tree ("build 4 · v3"). */
export function tagNamesByBuild(store: CorpusStore): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const t of buildTags(store)) m.set(t.build_id, [...(m.get(t.build_id) ?? []), t.name]);
  return m;
}

/** "build 4" or "build 4 (v3)": how a report names a build. */
export function buildLabel(store: CorpusStore, buildId: number): string {
  const names = tagNamesByBuild(store).get(buildId);
  return names?.length ? `build ${buildId} (${names.join(', ')})` : `build ${buildId}`;
}

/** Before the file is read: `value` must at least look like a build id or a tag name. */
export function checkBuildRef(value: string, flag: string): void {
  if (!/^\d+$/.test(value) && !TAG_NAME.test(value))
    throw new UserError(`${flag} "${visibleEscapes(value)}": neither a build id nor a tag name`);
}

/**
 * The finished build that `value` names: a build id, or a tag. Anything else is a one-line UserError
 * naming `flag` and listing what there is.
 */
export function resolveBuild(store: CorpusStore, value: string, flag: string): number {
  if (/^\d+$/.test(value)) {
    const id = Number(value);
    if (store.get('SELECT 1 AS x FROM builds WHERE id = ? AND finished_at IS NOT NULL', [id])) return id;
  } else {
    const tag = store.get<{ build_id: number }>('SELECT build_id FROM build_tags WHERE name = ?', [value]);
    if (tag) return Number(tag.build_id);
  }
  const tags = buildTags(store).map((t) => t.name);
  const builds = finishedBuilds(store);
  throw new UserError(
    `${flag} ${visibleEscapes(value)}: no such build or tag in ${store.file} (builds: ${builds.join(', ') || 'none'}; tags: ${tags.map(visibleEscapes).join(', ') || 'none'})`,
  );
}
