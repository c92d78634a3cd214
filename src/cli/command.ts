import { parseArgs } from 'node:util';
import { UserError } from '../core/ground/store/errors';
import { visibleEscapes } from '../core/ground/text/visibleEscapes';
import { DEFAULT_WRITER_WAIT_MS, describeHolder, type LockHolder } from '../core/ground/store/writerLock';
import type { BuildProgress } from '../core/build/stages/runBuild';

/** One option of a command: how parseArgs reads it, and all its help shows of it (usage line and options list). */
export interface CliOption {
  type: 'string' | 'boolean';
  /** What the usage shows after a string option's flag, e.g. `<file>` or `jsonl|search-replace`; default `<name>`. */
  arg?: string;
  /** One line for the options list of `--help`. */
  description: string;
  /** Must be given: shown without brackets in the usage, and its absence is a one-line error. */
  required?: boolean;
}

export type Options = Record<string, CliOption>;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Whether err goes to a terminal: progress is printed only there (a log or a pipe gets the results only). */
  errIsTTY?: boolean;
}

/** One subcommand: its summary, its options (its usage and help are made from them) and what it does. */
export interface CliCommand<V = Record<string, string | boolean | undefined>> {
  name: string;
  summary: string;
  options: Options;
  /** Reads the whole corpus into memory and works on all of it: run with huge pages (core/ground/process/hugePages.ts). */
  holdsWholeCorpus?: boolean;
  /** The one positional argument the command takes (e.g. protect's JSONL file), handed to run as values._; absent: none. */
  positional?: string;
  run(values: V, io: CliIo): Promise<number>;
}

/** Every command takes these; main.ts also reads them to tell a help request before running anything. */
export const HELP_FLAGS = ['--help', '-h'];

function flag(name: string, spec: CliOption): string {
  return spec.type === 'string' ? `--${name} ${spec.arg ?? `<${name}>`}` : `--${name}`;
}

/** The usage line after `review-corpus `, e.g. `build --db <file> [--config <corpus.json>]`. */
export function usageLine(cmd: CliCommand): string {
  const options = Object.entries(cmd.options).map(([name, spec]) =>
    spec.required ? flag(name, spec) : `[${flag(name, spec)}]`,
  );
  return [cmd.name, ...options, ...(cmd.positional === undefined ? [] : [cmd.positional])].join(' ');
}

export function helpText(cmd: CliCommand): string {
  const rows = Object.entries(cmd.options).map(([name, spec]) => [
    flag(name, spec),
    `${spec.description}${spec.required ? ' (required)' : ''}`,
  ]);
  rows.push(['-h, --help', 'print this help']);
  const width = Math.max(...rows.map(([f]) => f.length));
  return [
    `usage: review-corpus ${usageLine(cmd)}`,
    '',
    cmd.summary,
    '',
    'options:',
    ...rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`),
  ].join('\n');
}

/** Parses argv strictly; any bad argument becomes a one-line UserError naming it. */
export function parseCommandArgs(
  cmd: CliCommand,
  argv: string[],
): Record<string, string | boolean | undefined> | 'help' {
  let parsed;
  try {
    const options = Object.fromEntries(Object.entries(cmd.options).map(([name, spec]) => [name, { type: spec.type }]));
    parsed = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: cmd.positional !== undefined,
    });
  } catch (e) {
    throw new UserError(`${cmd.name}: ${describeParseError(e as Error & { code?: string })}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  if (cmd.positional !== undefined) {
    if (parsed.positionals.length !== 1)
      throw new UserError(`${cmd.name}: give exactly one ${cmd.positional} (got ${parsed.positionals.length})`);
    values._ = parsed.positionals[0];
  }
  for (const name of Object.keys(cmd.options).filter((n) => cmd.options[n].required)) {
    if (values[name] === undefined) throw new UserError(`${cmd.name}: missing required option --${name}`);
    if (values[name] === '') throw new UserError(`${cmd.name}: option --${name} is empty`);
  }
  return values;
}

function describeParseError(e: Error & { code?: string }): string {
  // Node's messages are multi-line for some codes; keep the first line, which names the argument.
  const first = e.message.split('\n')[0].replace(/\. To specify.*$/, '');
  return first.replace(/^Unknown option '(.*)'$/, 'unknown option $1');
}

/** The corpus file a command reads or writes. */
export const DB_OPTION: CliOption = { type: 'string', arg: '<file>', description: 'the corpus file', required: true };

/** `--wait` of every writer: see lockWaitMs. */
export const WAIT_OPTION: CliOption = {
  type: 'string',
  arg: '<seconds>',
  description: `how long to wait for another writer's lock on the file (default ${DEFAULT_WRITER_WAIT_MS / 1000}; 0 fails at once)`,
};

/** How long a writer (fetch, build) waits for another writer's lock on the corpus file: `--wait <seconds>`, by default DEFAULT_WRITER_WAIT_MS. */
export function lockWaitMs(cmd: string, value: string | boolean | undefined): number {
  if (value === undefined) return DEFAULT_WRITER_WAIT_MS;
  const s = String(value);
  if (!/^\d+(\.\d+)?$/.test(s))
    throw new UserError(`${cmd}: --wait ${s}: a number of seconds (0 fails at once if another writer holds the file)`);
  return Number(s) * 1000;
}

/** Printed once when a writer starts waiting for another's lock; the failure after the wait is its own line. */
export function waitingLine(file: string, holder: LockHolder | undefined, waitMs: number): string {
  return `review-corpus: ${visibleEscapes(`${file}: in use by ${describeHolder(holder)}`)}; waiting up to ${waitMs / 1000} s for it (--wait)`;
}

/** Build and verify's progress: a line per step of the build, on a terminal's stderr only. */
export function buildStepsProgress(io: CliIo, label: string): ((p: BuildProgress) => void) | undefined {
  if (!io.errIsTTY) return undefined;
  return (p) => {
    if (p.done < p.total) io.err(`${label}: ${p.stage} (${p.done + 1}/${p.total})`);
  };
}
