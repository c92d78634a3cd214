import type { CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { exportCorpus } from '../../core/export/exportJsonl';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write the kept examples of the latest build as JSONL, with dataset-funnel.json beside it',
  usage: 'export --db <file> --out <examples.jsonl>',
  options: { db: { type: 'string' }, out: { type: 'string' } },
  required: ['db', 'out'],
  holdsWholeCorpus: true,
  async run(values, io) {
    const out = String(values.out);
    if (!existsSync(path.dirname(path.resolve(out)))) throw new UserError(`--out ${out}: the folder ${path.dirname(path.resolve(out))} does not exist`);
    const store = await CorpusStore.open(String(values.db));
    try {
      const { examples, funnelFile } = exportCorpus(store, out);
      io.out(`wrote ${examples} examples to ${out} and the funnel to ${funnelFile}`);
      return 0;
    } finally {
      store.close();
    }
  },
};
