import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { withCorpusWrite } from '../corpusWrite';
import { checkSetName, readReferenceFile, registerReferenceSet } from '../../core/rules/decontam/referenceSets';

export const protectCommand: CliCommand = {
  name: 'protect',
  summary:
    'register a protected reference set (JSONL of {id, before?, after?, comment?}) that the next build removes overlaps with',
  options: {
    db: DB_OPTION,
    name: { type: 'string', arg: '<set name>', description: "the reference set's name", required: true },
    replace: { type: 'boolean', description: 'replace the set of that name if there is one' },
    wait: WAIT_OPTION,
  },
  positional: '<references.jsonl>',
  async run(values, io) {
    const db = String(values.db);
    const name = checkSetName(String(values.name));
    const waitMs = lockWaitMs('protect', values.wait);
    // Read and checked before the lock: a bad line fails at once and the file is never opened for writing.
    const items = readReferenceFile(String(values._));
    return withCorpusWrite(io, { db, command: 'review-corpus protect', waitMs }, async (store) => {
      const set = store.transaction(() =>
        registerReferenceSet(store, name, items, { replace: values.replace === true }),
      );
      store.save();
      io.out(`protected "${set.name}": ${set.items} items, sha256 ${set.sha256}, registered ${set.registered_at}`);
      io.out(`the next build removes what overlaps it: review-corpus build --db ${db}`);
      return 0;
    });
  },
};
