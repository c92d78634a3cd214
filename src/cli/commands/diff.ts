import type { CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { compareBuilds, reconciliationLine } from '../../core/verify/compareBuilds';

function buildNumber(value: unknown, flag: string): number {
  const s = String(value);
  if (!/^\d+$/.test(s)) throw new UserError(`diff: ${flag} ${s}: a build id is a whole number`);
  return Number(s);
}

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'list the examples that entered and left between two builds, with the rule responsible',
  usage: 'diff --db <file> --from <build> --to <build> [--json]',
  options: { db: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' } },
  required: ['db', 'from', 'to'],
  holdsWholeCorpus: true,
  async run(values, io) {
    const from = buildNumber(values.from, '--from');
    const to = buildNumber(values.to, '--to');
    const store = await CorpusStore.open(String(values.db));
    try {
      const c = compareBuilds(store, from, to);
      if (values.json) {
        io.out(JSON.stringify({ ...c, reconciliation: reconciliationLine(c) }, null, 2));
        return 0;
      }
      for (const m of c.left) io.out(`left\t${m.key}\t${m.rule}`);
      for (const m of c.entered) io.out(`entered\t${m.key}\t${m.rule}`);
      io.out(`kept(${from}) − left + entered = kept(${to}): ${reconciliationLine(c)}`);
      return 0;
    } finally {
      store.close();
    }
  },
};
