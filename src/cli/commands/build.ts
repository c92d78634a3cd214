import { buildStepsProgress, DB_OPTION, lockWaitMs, WAIT_OPTION, waitingLine, type CliCommand } from '../command';
import { loadCorpusConfig } from '../../core/rules/corpusJson/loadConfig';
import { buildJob } from '../../core/jobs/jobs';

export const buildCommand: CliCommand = {
  name: 'build',
  summary: 'build examples from the stored records only (never the network)',
  options: {
    db: DB_OPTION,
    config: {
      type: 'string',
      arg: '<corpus.json>',
      description: "build with this config's rules instead of the stored one, and store it",
    },
    wait: WAIT_OPTION,
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const db = String(values.db);
    const waitMs = lockWaitMs('build', values.wait);
    const config = values.config ? loadCorpusConfig(String(values.config)) : undefined;
    // The job holds the lock from before the file is read to after its save: a second writer reading
    // the same state would save over this build, or this build over its work. The config a build ran
    // with is the one verify --reproduce rebuilds with.
    const result = await buildJob({
      dbFile: db,
      config,
      signal: io.signal,
      command: 'review-corpus build',
      waitMs,
      onWait: (_, holder) => io.err(waitingLine(db, holder, waitMs)),
      onProgress: buildStepsProgress(io, 'build'),
    });
    if (result.newFlags) io.out(`${result.newFlags} new flags for the inspector`);
    // The funnel's warnings end the last line, so a build that lost much of a window says so where it is read.
    const warnings = (result.funnel.warnings ?? []).map((w) => `; warning: ${w}`).join('');
    io.out(
      `build ${result.buildId}: ${result.kept} examples kept, corpus ${result.corpusHash.slice(0, 12)}, rules ${result.rulesVersion.slice(0, 12)}${warnings}`,
    );
    return 0;
  },
};
