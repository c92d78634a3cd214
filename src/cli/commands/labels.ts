// `labels import`: one rater's labels from JSONL, all or nothing.
import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { withCorpusWrite } from '../corpusWrite';
import { importRaterLabels, readRaterLabels, storedRaterName } from '../../core/review/labels/importLabels';
import { storedConfig } from '../../core/build/stages/loadCorpus';
import { requireSalt } from '../../core/gerrit/pseudonymize';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';

export const labelsImportCommand: CliCommand = {
  name: 'labels import',
  summary:
    'import one rater\'s labels, JSONL of {"example_key", "label"} (label: answers, does_not or unsure); every line is checked before anything is written',
  options: {
    db: DB_OPTION,
    rater: {
      type: 'string',
      arg: '<name>',
      description:
        "a model rater's model id (with --model); a human rater's pseudonym, or a name stored only as its pseudonym (needs the salt)",
      required: true,
    },
    model: { type: 'boolean', description: 'the rater is a model: its name is its model id' },
    wait: WAIT_OPTION,
  },
  positional: '<labels.jsonl>',
  async run(values, io) {
    const db = String(values.db);
    const kind = values.model === true ? 'model' : 'human';
    const waitMs = lockWaitMs('labels import', values.wait);
    // Read and checked before the lock: a bad line fails at once and the file is never opened for writing.
    const labels = readRaterLabels(String(values._));
    return withCorpusWrite(io, { db, command: 'review-corpus labels import', waitMs }, async (store) => {
      const rater = storedRaterName(String(values.rater), kind, () =>
        requireSalt(io.env, storedConfig(store).salt.env),
      );
      const r = store.transaction(() => importRaterLabels(store, rater, kind, labels, String(values._)));
      store.save();
      const named = rater === String(values.rater).trim() ? rater : `${rater} (the pseudonym of the name given)`;
      io.out(
        visibleEscapes(
          `imported ${labels.length} labels of ${kind} rater ${named}: ${r.added} new, ${r.changed} changed, ${r.unchanged} as before`,
        ),
      );
      return 0;
    });
  },
};
