import { buildStepsProgress, DB_OPTION, lockWaitMs, WAIT_OPTION, waitingLine, type CliCommand } from '../command';
import { CorpusStore, buildReserve } from '../../core/store/corpusStore';
import { withWriterLock } from '../../core/store/writerLock';
import { runBuild } from '../../core/corpusBuild/runBuild';
import { loadCorpusConfig } from '../../core/config/loadConfig';
import { storeConfig } from '../../core/gerrit/fetchCorpus';

export const buildCommand: CliCommand = {
  name: 'build',
  summary: 'build examples from the stored records only (never the network)',
  options: {
    db: DB_OPTION,
    config: { type: 'string', arg: '<corpus.json>', description: 'build with this config\'s rules instead of the stored one, and store it' },
    wait: WAIT_OPTION,
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const db = String(values.db);
    const waitMs = lockWaitMs('build', values.wait);
    // Held from before the file is read to after its save: a second writer reading the same state
    // would save over this build, or this build over its work.
    return withWriterLock(db, { command: 'review-corpus build', waitMs, signal: io.signal, onWait: (_, holder) => io.err(waitingLine(db, holder, waitMs)), mustExist: true }, async () => {
      const store = await CorpusStore.open(db, { reserveBytes: buildReserve(db) });
      try {
        const config = values.config ? loadCorpusConfig(String(values.config)) : undefined;
        // The config a build ran with is the one verify --reproduce rebuilds with.
        if (config) storeConfig(store, config);
        const result = await runBuild(store, { signal: io.signal, onProgress: buildStepsProgress(io, 'build') });
        store.save();
        if (result.newFlags) io.out(`${result.newFlags} new flags for the inspector`);
        io.out(`build ${result.buildId}: ${result.kept} examples kept, corpus ${result.corpusHash.slice(0, 12)}, rules ${result.rulesVersion.slice(0, 12)}`);
        return 0;
      } finally {
        store.close();
      }
    });
  },
};
