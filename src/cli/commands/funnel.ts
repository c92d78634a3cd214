import type { CliCommand } from '../command';
import { CorpusStore } from '../../core/store/corpusStore';
import { UserError } from '../../core/store/errors';
import { requireBuild } from '../../core/inspect/groups';
import { funnelTable } from '../../core/export/funnelTable';
import { requireBuildId } from '../../core/verify/compareBuilds';
import { printableJson, visibleStrings } from '../printable';

export const funnelCommand: CliCommand = {
  name: 'funnel',
  summary: 'print the latest build\'s funnel: every rule in order, per organization and window',
  usage: 'funnel --db <file> [--json] [--build <id>]',
  options: { db: { type: 'string' }, json: { type: 'boolean' }, build: { type: 'string' } },
  required: ['db'],
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
