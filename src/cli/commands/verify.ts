import { buildStepsProgress, DB_OPTION, type CliCommand } from '../command';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';
import { differenceLines, verifyJob } from '../../core/jobs/jobs';

export const verifyCommand: CliCommand = {
  name: 'verify',
  summary: 'rebuild from the stored records into a scratch copy and check the corpus hash matches',
  options: {
    db: DB_OPTION,
    reproduce: {
      type: 'boolean',
      description: "rebuild and compare the corpus hash with the latest build's",
      required: true,
    },
    build: {
      type: 'string',
      arg: '<id|tag>',
      description: "compare with this build's corpus hash (an id or a tag name) instead of the latest's",
    },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const r = await verifyJob({
      dbFile: String(values.db),
      build: values.build === undefined ? undefined : String(values.build),
      signal: io.signal,
      onProgress: buildStepsProgress(io, 'verify, rebuilding'),
    });
    if ('stale' in r) {
      io.out(visibleEscapes(`not reproducible by this code: ${r.stale}`));
      return 1;
    }
    if (!r.configRecorded)
      io.out(
        `note: build ${r.buildId} did not record its config (built before builds did); rebuilt with the stored one`,
      );
    if (r.clean) {
      io.out('clean');
      return 0;
    }
    io.out(`differs: build ${r.buildId} has corpus ${r.expected}, the rebuild ${r.actual}`);
    for (const line of differenceLines(r)) io.out(visibleEscapes(line));
    return 1;
  },
};
