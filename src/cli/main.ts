import { UserError } from '../core/ground/store/errors';
import { HELP_FLAGS, helpText, parseCommandArgs, type CliCommand, type CliIo } from './command';
import { COMMANDS } from './commands';
import { relaunch } from './relaunch';
import { currentPlatform, hugePagesTunables } from '../core/ground/process/hugePages';
import { listenToParent } from '../core/ground/process/parentLink';
import { visibleEscapes } from '../core/ground/text/visibleEscapes';
import pkg from '../../package.json';

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `review-corpus ${pkg.version}: build code-review refinement corpora from Gerrit into one sql.js file`,
    '',
    'usage: review-corpus <command> [options]',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run `review-corpus help <command>` (or `review-corpus <command> -h`) for a command's options.",
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name] = argv;
  if (name === 'help' && argv.length > 1) {
    const two = COMMANDS.some((c) => c.name === `${argv[1]} ${argv[2]}`);
    return runCli([...argv.slice(1, two ? 3 : 2), '--help'], io);
  }
  if (name === undefined || HELP_FLAGS.includes(name) || name === 'help') {
    io.out(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.out(pkg.version);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    const family = COMMANDS.filter((c) => c.name.startsWith(`${name} `)).map((c) => c.name);
    io.err(
      family.length
        ? `review-corpus: ${visibleEscapes(name)} needs a subcommand: ${family.join(', ')}`
        : `review-corpus: unknown command '${name}' (commands: ${COMMANDS.map((c) => c.name).join(', ')})`,
    );
    return 2;
  }
  const { cmd, rest } = found;
  try {
    const values = parseCommandArgs(cmd, rest);
    if (values === 'help') {
      io.out(helpText(cmd));
      return 0;
    }
    return await cmd.run(values, io);
  } catch (e) {
    if (e instanceof UserError) {
      io.err(`review-corpus: ${visibleEscapes(e.message)}`); // may quote a record: a path, a date
      return 2;
    }
    if ((e as Error).name === 'AbortError') {
      io.err('review-corpus: cancelled');
      return 130;
    }
    // An unexpected failure is still one line; REVIEW_CORPUS_DEBUG=1 shows the stack.
    io.err(`review-corpus: internal error: ${visibleEscapes((e as Error).message)}`);
    if (io.env.REVIEW_CORPUS_DEBUG) io.err(String((e as Error).stack));
    return 1;
  }
}

/** A command of two words (`audit sample`) is found before a one-word one; `rest` is what follows its name. */
function findCommand(argv: string[]): { cmd: CliCommand; rest: string[] } | undefined {
  const two = COMMANDS.find((c) => argv.length > 1 && c.name === `${argv[0]} ${argv[1]}`);
  if (two) return { cmd: two as CliCommand, rest: argv.slice(2) };
  const one = COMMANDS.find((c) => c.name === argv[0]);
  return one ? { cmd: one as CliCommand, rest: argv.slice(1) } : undefined;
}

function runHere(argv: string[]): void {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  listenToParent(() => controller.abort());
  // A reader that stops early (`| head -1`) closes the pipe. Node ignores SIGPIPE, so the next write
  // fails with EPIPE, and unhandled that is a stack trace. As a shell's tools do, the command then stops
  // (cancelled, so a writer leaves its file as Ctrl-C would), prints nothing more and ends with 0.
  let readerGone = false;
  const stop = () => {
    readerGone = true;
    controller.abort();
  };
  const write = (stream: NodeJS.WriteStream) => {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      stop();
    });
    return (line: string) => {
      if (!readerGone && stream.destroyed) stop(); // the EPIPE of an earlier write is only reported later
      if (!readerGone) stream.write(line + '\n');
    };
  };
  runCli(argv, {
    out: write(process.stdout),
    err: write(process.stderr),
    env: process.env,
    signal: controller.signal,
    errIsTTY: process.stderr.isTTY === true,
  }).then((code) => {
    process.exitCode = readerGone ? 0 : code;
  });
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const cmd = findCommand(argv)?.cmd;
  // Under a debugger or profiler the work stays in the process being watched.
  const watched = process.execArgv.some((a) => /^--(inspect|cpu-prof|heap-prof|prof)/.test(a));
  const tunables =
    cmd?.holdsWholeCorpus && !argv.some((a) => HELP_FLAGS.includes(a)) && !watched
      ? hugePagesTunables(currentPlatform())
      : undefined;
  if (tunables === undefined) runHere(argv);
  else {
    if (process.env.REVIEW_CORPUS_DEBUG)
      process.stderr.write(
        `review-corpus: running ${cmd?.name} with GLIBC_TUNABLES=${tunables} (transparent huge pages)\n`,
      );
    relaunch(tunables).then(
      (code) => {
        process.exitCode = code;
      },
      () => runHere(argv),
    );
  }
}
