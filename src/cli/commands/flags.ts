// `flags list` and `flags set`: the inspector's Confirm Flag and Reject Flag from the command line.
// A decision goes through the same core function as the inspector's (build/flags/flagDecisions.ts),
// so both append to the flag's history and the next build reads and records it.
import { DB_OPTION, lockWaitMs, WAIT_OPTION, type CliCommand } from '../command';
import { CorpusStore, SMALL_EDITS_OPEN } from '../../core/ground/store/corpusStore';
import { UserError } from '../../core/ground/store/errors';
import { withCorpusWrite } from '../corpusWrite';
import { exampleInCorpus, listFlags, setExampleFlags, type FlagStatus } from '../../core/build/flags/flagDecisions';
import { storedConfig } from '../../core/build/stages/loadCorpus';
import { requireSalt } from '../../core/gerrit/pseudonymize';
import { localUserPseudonym } from '../../core/ground/privacy/localUser';
import { visibleEscapes } from '../../core/ground/text/visibleEscapes';
import { printableJson } from '../printable';

const EXAMPLE_ARG = '<id>';

export const flagsListCommand: CliCommand = {
  name: 'flags list',
  summary: "list the flags on kept examples: each one's status (open, confirmed, rejected), rater and time",
  options: {
    db: DB_OPTION,
    example: { type: 'string', arg: EXAMPLE_ARG, description: 'only this example (its id as an export writes it)' },
    json: { type: 'boolean', description: 'print the flags as JSON, each with its history of decisions' },
  },
  async run(values, io) {
    const example = values.example === undefined ? undefined : String(values.example);
    const store = await CorpusStore.open(String(values.db), SMALL_EDITS_OPEN);
    try {
      const flags = listFlags(store, example);
      if (example !== undefined && flags.length === 0 && !exampleInCorpus(store, example))
        throw new UserError(`flags list: --example ${example}: no such example in ${store.file}`);
      if (values.json) io.out(printableJson(flags));
      else if (flags.length === 0) io.out('no flags');
      else
        for (const f of flags)
          io.out(
            [f.example, f.reason, f.status, f.rater ?? '-', f.decided_at ?? '-', `${f.history.length} decisions`]
              .map((x) => visibleEscapes(x))
              .join('\t'),
          );
      return 0;
    } finally {
      store.close();
    }
  },
};

/** The word a user gives → the status stored ('clear' sets the flag open again). */
const SET_TO = new Map<string, FlagStatus>([
  ['confirmed', 'confirmed'],
  ['rejected', 'rejected'],
  ['clear', 'open'],
]);

export const flagsSetCommand: CliCommand = {
  name: 'flags set',
  summary:
    "confirm or reject an example's flags (a confirmed flag removes the example at the next build, manual_flag), or clear the decision; recorded with your rater pseudonym and the time",
  options: {
    db: DB_OPTION,
    example: {
      type: 'string',
      arg: EXAMPLE_ARG,
      description: 'the example (its id as an export writes it)',
      required: true,
    },
    reason: {
      type: 'string',
      arg: '<reason>',
      description: 'only this flag of the example (default: all of its flags)',
    },
    wait: WAIT_OPTION,
  },
  positional: 'confirmed|rejected|clear',
  async run(values, io) {
    const db = String(values.db);
    const word = String(values._);
    const status = SET_TO.get(word);
    if (status === undefined)
      throw new UserError(`flags set: ${JSON.stringify(word)}: give confirmed, rejected or clear`);
    const example = String(values.example);
    const reason = values.reason === undefined ? undefined : String(values.reason);
    const waitMs = lockWaitMs('flags set', values.wait);
    return withCorpusWrite(
      io,
      { db, command: 'review-corpus flags set', waitMs, open: SMALL_EDITS_OPEN },
      async (store) => {
        // The inspector's rater: the pseudonym of the local user under the corpus's salt.
        const rater = localUserPseudonym(requireSalt(io.env, storedConfig(store).salt.env));
        const now = new Date().toISOString();
        const changes = store.transaction(() => setExampleFlags(store, example, status, rater, now, reason));
        if (changes.some((c) => c.before !== c.after)) store.save();
        for (const c of changes)
          io.out(
            visibleEscapes(
              c.before === c.after
                ? `${example} ${c.reason}: already ${c.after}`
                : `${example} ${c.reason}: ${c.before} → ${c.after}${c.after === 'confirmed' ? ' (leaves at the next build: manual_flag)' : ''}`,
            ),
          );
        return 0;
      },
    );
  },
};
