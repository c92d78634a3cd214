// Where a corpus file's bytes go: per table, its rows, the bytes of its values (SQLite's length() of
// each column as a BLOB, so TEXT counts its UTF-8 bytes) and what the file shrinks by when the table is
// emptied and the copy VACUUMed (pages, b-tree and index overhead included). sql.js builds lack the
// dbstat table, hence the two measures. Per unit: bytes per change, comment, diff and kept example; the
// blob pack beside the file (file versions, since schema 11) counts with the diffs and the whole.
//   node bench/run.mjs storage-size --db /tmp/bench-20k.sqlite
// The file is only read: every VACUUM runs on an in-memory copy.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { blobPackPath } from '../src/core/ground/store/blobPack';
import { CorpusStore } from '../src/core/ground/store/corpusStore';
import { arg } from './benchArgs';

async function main(): Promise<void> {
  const db = arg('db');
  if (!db) throw new Error('usage: node bench/run.mjs storage-size --db <corpus.sqlite>');
  // As it is on disk: open() would move inline diffs into blobs first.
  const store = await CorpusStore.fromBytes(db, readFileSync(db));
  const vacuumedSize = (s: CorpusStore) => {
    s.exec('VACUUM');
    return Number(s.scalar('PRAGMA page_count')) * Number(s.scalar('PRAGMA page_size'));
  };
  const bytes = store.export().slice();
  const whole = await CorpusStore.fromBytes(db, bytes);
  const vacuumed = vacuumedSize(whole);
  whole.close();
  const tables = store
    .all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .map((r) => r.name);
  const perTable: Record<
    string,
    { rows: number; valueBytes: number; fileBytes: number; columns: Record<string, number> }
  > = {};
  for (const t of tables) {
    const cols = store.all<{ name: string }>(`PRAGMA table_info("${t}")`).map((r) => r.name);
    const columns: Record<string, number> = {};
    for (const c of cols)
      columns[c] = Number(store.scalar(`SELECT coalesce(sum(length(CAST("${c}" AS BLOB))), 0) FROM "${t}"`));
    const rows = Number(store.scalar(`SELECT count(*) FROM "${t}"`));
    let fileBytes = 0; // an empty table's root page is the schema's, not its rows'
    if (rows > 0) {
      const copy = await CorpusStore.fromBytes(db, bytes);
      copy.exec(`DELETE FROM "${t}"`);
      fileBytes = vacuumed - vacuumedSize(copy);
      copy.close();
    }
    perTable[t] = { rows, valueBytes: Object.values(columns).reduce((a, b) => a + b, 0), fileBytes, columns };
  }
  const count = (sql: string) => Number(store.scalar(sql) ?? 0);
  const build = count('SELECT max(id) FROM builds');
  const kept = build ? count(`SELECT count(*) FROM examples WHERE build_id = ${build} AND rule IS NULL`) : 0;
  const per = (table: string, n: number) =>
    n > 0 && perTable[table] ? Math.round(perTable[table].fileBytes / n) : null;
  // File versions written since schema 11 are in the blob pack beside the database (blobPack.ts).
  const pack = existsSync(blobPackPath(db)) ? statSync(blobPackPath(db)).size : 0;
  const blobs = (perTable.blobs?.fileBytes ?? 0) + pack;
  const diffs = perTable.diffs?.rows ?? 0;
  console.log(
    JSON.stringify(
      {
        db,
        fileBytes: statSync(db).size,
        vacuumedBytes: vacuumed,
        packBytes: pack,
        schemaVersion: store.schemaVersion,
        diffLayouts: diffLayouts(store),
        keptExamples: kept,
        perUnit: {
          change: per('changes', perTable.changes?.rows ?? 0),
          comment: per('comments', perTable.comments?.rows ?? 0),
          // A diff's bytes are its row plus, once blobs exist, its share of the blobs it references.
          diff: diffs ? Math.round(((perTable.diffs?.fileBytes ?? 0) + blobs) / diffs) : null,
          exampleRow: per('examples', perTable.examples?.rows ?? 0),
          fileBytesPerKeptExample: kept ? Math.round((vacuumed + pack) / kept) : null,
          databaseBytesPerKeptExample: kept ? Math.round(vacuumed / kept) : null,
        },
        perTable,
      },
      null,
      2,
    ),
  );
  store.close();
}

function diffLayouts(store: CorpusStore): Record<string, number> {
  const hasLayout = store.all<{ name: string }>('PRAGMA table_info(diffs)').some((c) => c.name === 'layout');
  if (!hasLayout) return { inline: Number(store.scalar('SELECT count(*) FROM diffs')) };
  return Object.fromEntries(
    store
      .all<{ layout: string | null; n: number }>('SELECT layout, count(*) AS n FROM diffs GROUP BY layout')
      .map((r) => [r.layout ?? 'inline (older)', Number(r.n)]),
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
