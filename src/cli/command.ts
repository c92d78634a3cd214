import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UserError } from '../core/store/errors';
import { visibleEscapes } from '../core/text/visibleEscapes';
import { DEFAULT_WRITER_WAIT_MS, describeHolder, type LockHolder } from '../core/store/writerLock';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** One subcommand: its usage text, its options (for parseArgs) and what it does. */
export interface CliCommand<V = Record<string, string | boolean | undefined>> {
  name: string;
  summary: string;
  usage: string;
  options: Options;
  required: string[];
  /** Reads the whole corpus into memory and works on all of it: run with huge pages (core/process/hugePages.ts). */
  holdsWholeCorpus?: boolean;
  run(values: V, io: CliIo): Promise<number>;
}

export function helpText(cmd: CliCommand): string {
  const lines = [`usage: review-corpus ${cmd.usage}`, '', cmd.summary, '', 'options:'];
  for (const [name, spec] of Object.entries(cmd.options)) {
    const arg = spec.type === 'string' ? ` <${name === 'out' ? 'file' : name}>` : '';
    lines.push(`  --${name}${arg}${cmd.required.includes(name) ? '  (required)' : ''}`);
  }
  lines.push('  --help');
  return lines.join('\n');
}

/** Parses argv strictly; any bad argument becomes a one-line UserError naming it. */
export function parseCommandArgs(cmd: CliCommand, argv: string[]): Record<string, string | boolean | undefined> | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...cmd.options, help: { type: 'boolean' } }, strict: true, allowPositionals: false });
  } catch (e) {
    throw new UserError(`${cmd.name}: ${describeParseError(e as Error & { code?: string })}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  for (const name of cmd.required) {
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

/** How long a writer (fetch, build) waits for another writer's lock on the corpus file: `--wait <seconds>`, by default DEFAULT_WRITER_WAIT_MS. */
export function lockWaitMs(cmd: string, value: string | boolean | undefined): number {
  if (value === undefined) return DEFAULT_WRITER_WAIT_MS;
  const s = String(value);
  if (!/^\d+(\.\d+)?$/.test(s)) throw new UserError(`${cmd}: --wait ${s}: a number of seconds (0 fails at once if another writer holds the file)`);
  return Number(s) * 1000;
}

/** Printed once when a writer starts waiting for another's lock; the failure after the wait is its own line. */
export function waitingLine(file: string, holder: LockHolder | undefined, waitMs: number): string {
  return `review-corpus: ${visibleEscapes(`${file}: in use by ${describeHolder(holder)}`)}; waiting up to ${waitMs / 1000} s for it (--wait)`;
}
