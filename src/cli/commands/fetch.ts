import { requireContact } from '../../core/gerrit/userAgent';
import { lockWaitMs, WAIT_OPTION, waitingLine, type CliCommand, type CliIo } from '../command';
import { requireSalt } from '../../core/gerrit/pseudonymize';
import { corpusDbPath } from '../../core/ground/config/configFile';
import { loadCorpusConfig } from '../../core/rules/corpusJson/loadConfig';
import { sealWindow, syncWindows, unsealWindow } from '../../core/ground/config/windows';
import { storeConfig } from '../../core/gerrit/fetchCorpus';
import { fetchJob, fetchProgressLine, planJob } from '../../core/jobs/jobs';
import { UserError } from '../../core/ground/store/errors';
import { localUserPseudonym } from '../../core/ground/privacy/localUser';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';

export const fetchCommand: CliCommand = {
  name: 'fetch',
  summary: 'fetch merged changes from every host in the config into the corpus file (pseudonymized, resumable)',
  options: {
    config: {
      type: 'string',
      arg: '<corpus.json>',
      description: 'the corpus config: hosts, windows, salt',
      required: true,
    },
    db: {
      type: 'string',
      arg: '<file>',
      description: 'the corpus file (default the config\'s "db", beside the config)',
    },
    unseal: {
      type: 'string',
      arg: '<window>',
      description: 'unseal this window before fetching, recorded with your pseudonym and the time',
    },
    seal: {
      type: 'string',
      arg: '<window>',
      description: 'seal this window before fetching: its changes are held back; prints its sha256',
    },
    plan: {
      type: 'boolean',
      description:
        "fetch nothing: count each host's listing and print the requests, time and disk the fetch would take (docs/crawling.md)",
    },
    wait: WAIT_OPTION,
    quiet: { type: 'boolean', description: 'no progress lines on stderr' },
  },
  async run(values, io) {
    const configFile = String(values.config);
    if (values.plan) return plan(values, io);
    const waitMs = lockWaitMs('fetch', values.wait);
    const config = loadCorpusConfig(configFile);
    const salt = requireSalt(io.env, config.salt.env);
    // Before the file is created: a real host is never asked without a contact in the User-Agent.
    if (!values.seal && !values.unseal) requireContact(config);
    const db = values.db ? String(values.db) : corpusDbPath(configFile, config);
    const every = Number(io.env.REVIEW_CORPUS_CHECKPOINT_MS);
    // The job holds the file's lock from before it is read to after the last checkpoint: the whole fetch is one writer.
    const { summary, changes } = await fetchJob({
      dbFile: db,
      config,
      salt,
      signal: io.signal,
      command: 'review-corpus fetch',
      waitMs,
      onWait: (_, holder) => io.err(waitingLine(db, holder, waitMs)),
      // How often the file is written while fetching; tests of kill-and-resume set it low.
      checkpointEveryMs: Number.isFinite(every) && every >= 0 ? every : undefined,
      before: (store) => {
        if (!values.seal && !values.unseal) return;
        store.transaction(() => {
          storeConfig(store, config);
          syncWindows(store, config);
          if (values.seal) io.out(`sealed window "${values.seal}": sha256 ${sealWindow(store, String(values.seal))}`);
          if (values.unseal) {
            unsealWindow(store, String(values.unseal), localUserPseudonym(salt));
            io.out(`unsealed window "${values.unseal}"`);
          }
        });
        store.save();
      },
      // At most once a second per host, and at each change of phase (FetchMeter).
      onProgress: values.quiet ? undefined : (p) => io.err(fetchProgressLine(p)),
    });
    for (const f of summary.failures) io.err(`review-corpus: ${visibleEscapes(f)}`);
    for (const c of changes) io.out(`${c.org}\t${c.rule ?? 'fetched'}\t${c.n}`);
    io.out(`wrote ${db}`);
    return summary.failures.length > 0 ? 1 : 0;
  },
};

/** `fetch --plan`: asks each host only for robots.txt and a count of its listing; writes nothing. */
async function plan(values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  const both = ['seal', 'unseal', 'wait'].find((o) => values[o] !== undefined);
  if (both) throw new UserError(`fetch: --plan fetches nothing, so it takes no --${both}`);
  const configFile = String(values.config);
  const config = loadCorpusConfig(configFile);
  const db = values.db ? String(values.db) : corpusDbPath(configFile, config);
  if (!values.quiet) io.err("review-corpus: counting each host's listing at its own pace");
  const { plan, lines } = await planJob({ dbFile: db, config, signal: io.signal });
  for (const line of lines) io.out(visibleEscapes(line));
  return plan.hosts.every((h) => h.error === undefined) ? 0 : 1;
}
