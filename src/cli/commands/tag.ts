import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { withCorpusWrite } from '../corpusWrite';
import { resolveBuild } from '../../core/publish/versions/tags';
import { tagAndFreeze } from '../../core/publish/export/frozenExport';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';

export const tagCommand: CliCommand = {
  name: 'tag',
  summary:
    'freeze a build under a name: its export (examples, card, counts, audits) is kept byte for byte, and funnel, export, diff and verify take the name wherever they take a build',
  options: {
    db: DB_OPTION,
    build: {
      type: 'string',
      arg: '<id|tag>',
      description: 'the build to freeze (its id, or another tag of it)',
      required: true,
    },
    name: {
      type: 'string',
      arg: '<name>',
      description: 'the tag: letters, digits, ".", "_", "-", not digits only; never moved once given',
      required: true,
    },
    wait: WAIT_OPTION,
  },
  async run(values, io) {
    const file = String(values.db);
    const waitMs = lockWaitMs('tag', values.wait);
    // A tag is a write: under the writer lock, like a build, so a concurrent build cannot prune the examples it keeps.
    return withCorpusWrite(io, { db: file, command: 'review-corpus tag', waitMs }, async (store) => {
      const buildId = resolveBuild(store, String(values.build), '--build');
      const tag = store.transaction(() => tagAndFreeze(store, buildId, String(values.name)));
      store.save();
      io.out(
        visibleEscapes(
          `tagged build ${tag.build_id} as ${tag.name}, its export frozen (rules ${tag.rules_version.slice(0, 12)}, config ${tag.config_hash.slice(0, 12)}, corpus ${tag.corpus_hash ?? 'none'})`,
        ),
      );
      return 0;
    });
  },
};
