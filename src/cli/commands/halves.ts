import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { withCorpusWrite } from '../corpusWrite';
import { registerHalves } from '../../core/build/halves/halvesRegistry';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';

export const halvesCommand: CliCommand = {
  name: 'halves register',
  summary:
    "register one organization's halves of the latest build (hash, size floor, suffix-mix ceiling, matched suffix); every later build is checked against them",
  options: {
    db: DB_OPTION,
    org: {
      type: 'string',
      arg: '<org>',
      description: 'the organization whose halves to register (one at a time; a half with no example is refused)',
      required: true,
    },
    window: {
      type: 'string',
      arg: '<name>',
      description: "the window the halves split (default: the config's halves.window); must match the build's",
    },
    replace: { type: 'boolean', description: 'replace a registration (recorded in halves_events)' },
    wait: WAIT_OPTION,
  },
  async run(values, io) {
    const db = String(values.db);
    const waitMs = lockWaitMs('halves register', values.wait);
    return withCorpusWrite(io, { db, command: 'review-corpus halves register', waitMs }, async (store) => {
      const window = values.window === undefined ? undefined : String(values.window);
      const org = String(values.org);
      const r = store.transaction(() => registerHalves(store, { org, window, replace: values.replace === true }));
      store.save();
      io.out(
        visibleEscapes(
          `registered ${r.org}'s halves of ${r.window} from build ${r.build_id}: size floor ${r.size_floor}, suffix TVD ceiling ${r.suffix_tvd_ceiling}, ` +
            `matched suffix ${r.matched_suffix ?? 'none'}, definition sha256 ${r.definition_sha256}, ${r.registered_at}`,
        ),
      );
      io.out(`every later build is checked against them: review-corpus build --db ${db}`);
      return 0;
    });
  },
};
