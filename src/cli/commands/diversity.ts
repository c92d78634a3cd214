import { DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/ground/store/corpusStore';
import { UserError } from '../../core/ground/store/errors';
import { requireBuild } from '../../core/review/inspect/groups';
import { checkBuildRef, resolveBuild } from '../../core/publish/versions/tags';
import { diversityReport } from '../../core/review/diversity/report';
import { diversityTable } from '../../core/review/diversity/table';
import { SELF_BLEU_SAMPLE } from '../../core/review/diversity/selfBleu';
import { printableJson, visibleStrings } from '../printable';

const wholeNumber = (flag: string, v: string | boolean | undefined, min: number): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(String(v)) || Number(v) < min)
    throw new UserError(`diversity: --${flag} ${v}: a whole number${min ? ` of at least ${min}` : ''}`);
  return Number(v);
};

export const diversityCommand: CliCommand = {
  name: 'diversity',
  summary:
    "print the diversity of the kept comments (and of the judge's rewrites), per organization and window: distinct-1/2/3, entropy, TTR, Self-BLEU, top n-grams",
  options: {
    db: DB_OPTION,
    build: { type: 'string', arg: '<id|tag>', description: 'this build (an id or a tag name) instead of the latest' },
    json: { type: 'boolean', description: 'print the report as JSON, with the top-10 n-grams and openings' },
    sample: {
      type: 'string',
      arg: '<n>',
      description: `Self-BLEU's sample size per set (default ${SELF_BLEU_SAMPLE})`,
    },
    seed: { type: 'string', arg: '<n>', description: "Self-BLEU's sample seed (default 0)" },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    if (values.build !== undefined) checkBuildRef(String(values.build), '--build');
    const sample = wholeNumber('sample', values.sample, 2);
    const seed = wholeNumber('seed', values.seed, 0);
    const store = await CorpusStore.open(String(values.db));
    try {
      const buildId =
        values.build !== undefined ? resolveBuild(store, String(values.build), '--build') : requireBuild(store);
      // Comment text is the host's: escaped before printing, and before the table measures its columns.
      const report = visibleStrings(diversityReport(store, buildId, { sample, seed }));
      io.out(values.json ? printableJson(report) : diversityTable(report));
      return 0;
    } finally {
      store.close();
    }
  },
};
