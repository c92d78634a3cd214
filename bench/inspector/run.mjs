// The inspector benchmark, end to end, on demand (not part of npm test):
//   node bench/inspector/run.mjs [--runs 5] [--examples 100000] [--file-lengths classic|realistic] [--grep <pattern>] [--no-build]
// 1. builds the extension (scripts/build.mjs) unless --no-build;
// 2. on first use, generates the corpus into .tmp/bench-inspector/examples-<N>/ (bench/generate.ts; with
//    --file-lengths realistic, into examples-<N>-realistic/), writes its corpus.json from the config stored in the
//    file, and builds it with the CLI under GNU time (wall time and peak RSS go into ready.json and are printed);
//    later runs reuse it (ready.json says so);
// 3. bundles bench/inspector/suite/ and runs it inside code-server (test/integration/run-code-server.mjs with
//    REVIEW_CORPUS_IT_SUITE), which stops every process it started;
// 4. prints the figures as a markdown section (also saved as .tmp/bench-inspector/BENCHMARKS-section.md).
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import initSqlJs from 'sql.js';
import { markdownReport } from './report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const runs = Number(option('runs', '5'));
const examples = Number(option('examples', '100000'));
const fileLengths = option('file-lengths', 'classic');
const grep = option('grep', undefined);
if (
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(examples) ||
  examples < 1 ||
  !['classic', 'realistic'].includes(fileLengths)
) {
  console.error(
    'usage: node bench/inspector/run.mjs [--runs <n ≥ 1>] [--examples <n ≥ 1>] [--file-lengths classic|realistic] [--grep <pattern>] [--no-build]',
  );
  process.exit(2);
}

const DIR = path.join(ROOT, '.tmp', 'bench-inspector');
/** One folder per corpus size and file lengths, so a smaller trial run never throws the 100k corpus away. */
const CORPUS_DIR = path.join(DIR, `examples-${examples}${fileLengths === 'classic' ? '' : `-${fileLengths}`}`);
const DB = path.join(CORPUS_DIR, 'corpus.sqlite');
const CONFIG = path.join(CORPUS_DIR, 'corpus.json');
const READY = path.join(CORPUS_DIR, 'ready.json');
/** Written once the generator has finished: a later run whose CLI build failed builds this file again instead of regenerating it. */
const GENERATED = path.join(CORPUS_DIR, 'generated.json');
const FIGURES = path.join(DIR, 'figures.json');
/** The blob pack the corpus keeps its file versions in (src/core/ground/store/blobPack.ts), beside DB. */
const PACK = `${DB}.blobs`;
const packSize = () => (existsSync(PACK) ? statSync(PACK).size : 0);
const SUITE_BUNDLE = path.join(ROOT, 'out', 'bench', 'inspector', 'suite.js');
const started = Date.now();
const since = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;

function step(what, command, args, env = {}) {
  console.log(`[${since()}] ${what}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
}

/**
 * `step` under GNU time: the command's wall seconds and peak RSS (KB), read back from time's own output
 * file (`timeFile`), also when the command failed (then its message names them).
 */
function timedStep(what, timeFile, command, args) {
  rmSync(timeFile, { force: true });
  let failure;
  try {
    step(what, '/usr/bin/time', ['-f', '%e s %M KB', '-o', timeFile, command, ...args]);
  } catch (e) {
    failure = e;
  }
  const text = existsSync(timeFile) ? readFileSync(timeFile, 'utf8') : '';
  const m = /([\d.]+) s (\d+) KB\s*$/.exec(text);
  const timed = m ? { wallSeconds: Number(m[1]), peakRssKB: Number(m[2]) } : {};
  if (m) console.log(`[${since()}] ${what}: ${m[1]} s wall, peak RSS ${(timed.peakRssKB / 1024 / 1024).toFixed(2)} GB`);
  if (failure) throw new Error(`${failure.message}${text ? `; time: ${text.trim().replace(/\s+/g, ' ')}` : ''}`);
  return timed;
}

/** The whole file in one Buffer: readFileSync stops at 2 GiB, and one read call at 2^31 - 1 bytes. */
function readWhole(file) {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(size);
    for (let at = 0; at < size;) {
      const n = readSync(fd, bytes, at, Math.min(1 << 30, size - at), at);
      if (n === 0) throw new Error(`${file}: ended at byte ${at} of ${size}`);
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The config the generator stored in the file's meta table: the corpus.json the extension opens. */
async function writeCorpusJson() {
  const SQL = await initSqlJs({ locateFile: () => path.join(ROOT, 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm') });
  const db = new SQL.Database(readWhole(DB));
  try {
    const [result] = db.exec("SELECT value FROM meta WHERE key = 'config'");
    if (!result) throw new Error(`${DB} has no stored config`);
    writeFileSync(CONFIG, `${JSON.stringify(JSON.parse(String(result.values[0][0])), null, 2)}\n`);
  } finally {
    db.close();
  }
}

async function ensureCorpus() {
  const ready = existsSync(READY) ? JSON.parse(readFileSync(READY, 'utf8')) : undefined;
  if (ready && existsSync(DB) && existsSync(CONFIG)) {
    const build = ready.build?.wallSeconds
      ? `; CLI build ${ready.build.wallSeconds} s wall, peak RSS ${(ready.build.peakRssKB / 1024 / 1024).toFixed(2)} GB`
      : '';
    console.log(
      `[${since()}] reusing ${path.relative(ROOT, DB)} (${examples} examples, ${ready.fileLengths ?? 'classic'} file lengths, built ${ready.builtAt}${build})`,
    );
    return;
  }
  const generated = existsSync(GENERATED) ? JSON.parse(readFileSync(GENERATED, 'utf8')) : undefined;
  if (generated && existsSync(DB) && statSync(DB).size === generated.generatedBytes && !existsSync(`${DB}.rcj`)) {
    console.log(`[${since()}] reusing the generated ${path.relative(ROOT, DB)} (not built yet)`);
  } else {
    rmSync(CORPUS_DIR, { recursive: true, force: true });
    mkdirSync(CORPUS_DIR, { recursive: true });
    const generate = timedStep(
      `generating ${examples} examples, ${fileLengths} file lengths (about 75 s for 100k classic)`,
      path.join(CORPUS_DIR, 'generate-time.txt'),
      process.execPath,
      [
        path.join(ROOT, 'bench', 'run.mjs'),
        'generate',
        '--examples',
        String(examples),
        '--out',
        DB,
        '--file-lengths',
        fileLengths,
      ],
    );
    writeFileSync(
      GENERATED,
      `${JSON.stringify({ examples, fileLengths, generatedBytes: statSync(DB).size, generatedPackBytes: packSize(), generate })}\n`,
    );
  }
  const { generatedBytes, generate } = JSON.parse(readFileSync(GENERATED, 'utf8'));
  step(`writing ${path.relative(ROOT, CONFIG)} from the stored config`, process.execPath, [
    fileURLToPath(import.meta.url),
    ...argv,
    '--write-corpus-json',
  ]);
  const build = timedStep(
    'building the corpus with the CLI (about 75 s for 100k classic)',
    path.join(CORPUS_DIR, 'build-time.txt'),
    process.execPath,
    [path.join(ROOT, 'dist', 'cli.js'), 'build', '--db', DB, '--config', CONFIG],
  );
  writeFileSync(
    READY,
    `${JSON.stringify({ examples, fileLengths, builtAt: new Date().toISOString(), generatedBytes, bytes: statSync(DB).size, packBytes: packSize(), generate, build })}\n`,
  );
}

async function bundleSuite() {
  mkdirSync(path.dirname(SUITE_BUNDLE), { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'bench', 'inspector', 'suite', 'inspector.bench.ts')],
    outfile: SUITE_BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    external: ['vscode', 'mocha'],
  });
}

async function main() {
  if (!argv.includes('--no-build'))
    step('building the extension', process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')]);
  await ensureCorpus();
  await bundleSuite();
  rmSync(FIGURES, { force: true });
  let failed = null;
  try {
    step(
      `running the benchmark in code-server (${runs} runs per figure)`,
      process.execPath,
      [path.join(ROOT, 'test', 'integration', 'run-code-server.mjs'), ...(grep ? ['--grep', grep] : [])],
      {
        REVIEW_CORPUS_IT_SUITE: SUITE_BUNDLE,
        REVIEW_CORPUS_IT_RESULTS_JSON: path.join(DIR, 'integration.json'),
        REVIEW_CORPUS_IT_TIMEOUT_MS: String(25 * 60_000),
        REVIEW_CORPUS_BENCH_CORPUS: CONFIG,
        REVIEW_CORPUS_BENCH_OUT: FIGURES,
        REVIEW_CORPUS_BENCH_RUNS: String(runs),
      },
    );
  } catch (e) {
    failed = e.message;
  }
  if (existsSync(FIGURES)) {
    const ready = existsSync(READY) ? JSON.parse(readFileSync(READY, 'utf8')) : {};
    const report = markdownReport(JSON.parse(readFileSync(FIGURES, 'utf8')), {
      command: [
        'node bench/inspector/run.mjs',
        ...(runs === 5 ? [] : [`--runs ${runs}`]),
        ...(examples === 100000 ? [] : [`--examples ${examples}`]),
        ...(fileLengths === 'classic' ? [] : [`--file-lengths ${fileLengths}`]),
        ...(grep ? [`--grep ${JSON.stringify(grep)}`] : []),
      ].join(' '),
      dbBytes: statSync(DB).size,
      packBytes: packSize(),
      fileLengths,
      generate: ready.generate,
      build: ready.build,
    });
    writeFileSync(path.join(DIR, 'BENCHMARKS-section.md'), report);
    console.log(`\n${report}`);
    console.log(`raw figures: ${path.relative(ROOT, FIGURES)}`);
  }
  console.log(`[${since()}] done`);
  if (failed) throw new Error(failed);
}

// `--write-corpus-json` (internal): ensureCorpus runs writeCorpusJson in a child process of its own, so the
// whole-file read (GBs at 300k realistic examples) is not held by this process through the build and the bench.
(argv.includes('--write-corpus-json') ? writeCorpusJson() : main()).catch((e) => {
  console.error(`bench/inspector: ${e.message}`);
  process.exitCode = 1;
});
