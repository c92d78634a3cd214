import { DB_OPTION, type CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { requireBuild } from '../../core/inspect/groups';
import { funnelTable } from '../../core/export/funnelTable';
import { requireBuildId } from '../../core/verify/compareBuilds';
import { printableJson, visibleStrings } from '../printable';

export const funnelCommand: CliCommand = {
  name: 'funnel',
  summary: 'print the latest build\'s funnel: every rule in order, per organization and window',
  options: {
    db: DB_OPTION,
    json: { type: 'boolean', description: 'print the funnel as JSON, as the build stored it' },
    build: { type: 'string', arg: '<id>', description: 'this build\'s funnel instead of the latest\'s' },
  },
  holdsWholeCorpus: true,
  async run(values, io) {
    if (values.build !== undefined && !/^\d+$/.test(String(values.build))) throw new UserError(`funnel: --build ${values.build}: a build id is a whole number`);
    const store = await CorpusStore.open(String(values.db));
    try {
      const buildId = values.build !== undefined ? Number(values.build) : requireBuild(store);
      requireBuildId(store, buildId, '--build');
      const funnel = JSON.parse(String(store.scalar('SELECT funnel FROM builds WHERE id = ?', [buildId])));
      // Escaped before the table is laid out, so its columns are measured on what is printed.
      io.out(values.json ? printableJson(funnel) : funnelTable(visibleStrings(funnel)));
      return 0;
    } finally {
      store.close();
    }
  },
};
