import { DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { compareBuilds, reconciliationLine } from '../../core/verify/compareBuilds';
import { visibleEscapes } from '../../core/text/visibleEscapes';
import { printableJson } from '../printable';

function buildNumber(value: unknown, flag: string): number {
  const s = String(value);
  if (!/^\d+$/.test(s)) throw new UserError(`diff: ${flag} ${s}: a build id is a whole number`);
  return Number(s);
}

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'list the examples that entered and left between two builds, with the rule responsible',
  options: {
    db: DB_OPTION,
    from: { type: 'string', arg: '<build>', description: 'the earlier build\'s id', required: true },
    to: { type: 'string', arg: '<build>', description: 'the later build\'s id', required: true },
    json: { type: 'boolean', description: 'print both lists and the reconciliation as JSON' },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    const from = buildNumber(values.from, '--from');
    const to = buildNumber(values.to, '--to');
    const store = await CorpusStore.open(String(values.db));
    try {
      const c = compareBuilds(store, from, to);
      if (values.json) {
        io.out(printableJson({ ...c, reconciliation: reconciliationLine(c) }));
        return 0;
      }
      // Keys hold host paths; a tab or newline in one shows escaped too, so the columns stay columns.
      for (const m of c.left) io.out(`left\t${visibleEscapes(m.key)}\t${visibleEscapes(m.rule)}`);
      for (const m of c.entered) io.out(`entered\t${visibleEscapes(m.key)}\t${visibleEscapes(m.rule)}`);
      io.out(`kept(${from}) − left + entered = kept(${to}): ${reconciliationLine(c)}`);
      return 0;
    } finally {
      store.close();
    }
  },
};
