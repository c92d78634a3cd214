// A cold `review-corpus build` of this tree against an older commit's, side by side on the same records.
//   node bench/run.mjs build-vs-commit [--commit 0291a30] [--examples 100000] [--runs 3] [--keep]
// It checks the commit out itself (a detached git worktree in the OS temp folder, reused while it
// exists), installs and builds it there, and has each side's own generator write the records (same
// seed, same rows: a tool reads the corpus files of its own schema, and the generator writes them as
// that tool's fetch stored them). Then it alternates the two CLIs, one fresh process per run, each on
// a fresh copy of its corpus (`cli-build`, run once per turn), so drift of this VM's speed falls on
// both sides alike. Output: each side's times, medians, peak RSS and the ratio this / commit.
// --keep leaves the generated corpora in the temp folder for the next run.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { arg, median } from './benchArgs';
import { filesBeside } from '../src/core/ground/store/copyCorpus';

const ROOT = path.resolve(__dirname, '../..');

interface Side {
  name: string;
  dir: string;
  db: string;
  seconds: number[];
  peakRssMb: number[];
}

/** Runs a command to its end; throws with its last stderr line when it fails. */
function run(cmd: string, args: string[], opts: SpawnSyncOptions = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...opts });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')}: ${
        String(r.stderr ?? '')
          .trim()
          .split('\n')
          .pop() ?? r.error
      }`,
    );
  return String(r.stdout);
}

/** The commit's tree, installed and built, in a worktree of its own (made once, then reused). */
function checkedOut(commit: string): string {
  const sha = run('git', ['rev-parse', '--verify', `${commit}^{commit}`], { cwd: ROOT }).trim();
  const dir = path.join(tmpdir(), `review-corpus-at-${sha.slice(0, 12)}`);
  if (!existsSync(path.join(dir, 'dist/cli.js'))) {
    if (!existsSync(dir)) run('git', ['worktree', 'add', '--detach', dir, sha], { cwd: ROOT });
    console.error(`${commit}: installing and building in ${dir}`);
    // An older package.json may predate its allowScripts list: install without scripts (esbuild's
    // binary comes as an optional dependency), as no script runs at our own install either.
    run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir });
    run('node', ['scripts/build.mjs'], { cwd: dir });
  }
  return dir;
}

/** Each side's generator writes its corpus: the same seed, so the same records. */
function generate(side: Side, examples: number): void {
  if (existsSync(side.db)) return;
  console.error(`${side.name}: generating ${examples} examples into ${side.db}`);
  run('node', ['bench/run.mjs', 'generate', '--examples', String(examples), '--out', side.db], { cwd: side.dir });
}

/** One cold build by the side's own CLI on a fresh copy of its corpus (bench/cli-build.ts). */
function buildOnce(side: Side): void {
  const out = run(
    'node',
    ['bench/run.mjs', 'cli-build', '--db', side.db, '--runs', '1', '--cli', path.join(side.dir, 'dist/cli.js')],
    { cwd: ROOT },
  );
  const r = JSON.parse(out) as { seconds: number[]; peakRssMb: number[] };
  side.seconds.push(r.seconds[0]);
  side.peakRssMb.push(r.peakRssMb[0]);
  console.error(`${side.name}: ${r.seconds[0]} s, peak RSS ${r.peakRssMb[0]} MB (load ${loadavg()[0].toFixed(2)})`);
}

function main(): void {
  const commit = arg('commit') ?? '0291a30';
  const examples = Number(arg('examples') ?? 100000);
  const runs = Number(arg('runs') ?? 3);
  if (!Number.isInteger(examples) || examples < 1 || !Number.isInteger(runs) || runs < 1)
    throw new Error('usage: node bench/run.mjs build-vs-commit [--commit 0291a30] [--examples N] [--runs 3] [--keep]');
  const head = run('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).trim();
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT }).trim() !== '';
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) throw new Error('no dist/cli.js here: run npm run build first');
  const at = (name: string) => path.join(tmpdir(), `build-vs-commit-${name}-${examples}.sqlite`);
  const base: Side = { name: commit, dir: checkedOut(commit), db: at(commit), seconds: [], peakRssMb: [] };
  const ours: Side = {
    name: `this tree (${head}${dirty ? ', modified' : ''})`,
    dir: ROOT,
    db: at('this'),
    seconds: [],
    peakRssMb: [],
  };
  const load = loadavg();
  try {
    for (const side of [base, ours]) generate(side, examples);
    for (let i = 0; i < runs; i++) for (const side of i % 2 ? [ours, base] : [base, ours]) buildOnce(side);
  } finally {
    if (!process.argv.includes('--keep'))
      for (const side of [base, ours]) for (const f of [side.db, ...filesBeside(side.db)]) rmSync(f, { force: true });
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const summary = (s: Side) => ({
    seconds: s.seconds,
    medianSeconds: r2(median(s.seconds)),
    peakRssMb: s.peakRssMb,
    medianPeakRssMb: median(s.peakRssMb),
  });
  console.log(
    JSON.stringify(
      {
        examples,
        runs,
        loadAverageBefore: load.map(r2),
        [base.name]: summary(base),
        [ours.name]: summary(ours),
        ratio: r2(median(ours.seconds) / median(base.seconds)),
      },
      null,
      2,
    ),
  );
}

try {
  main();
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
