// The CLI as a shell runs it: output into a pipe its reader closes early (`| head -1`), progress on a
// terminal's stderr and none in a log. Through a privately bundled CLI, relaunched with huge pages
// (src/cli/relaunch.ts) where this machine would, and in one process.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundlePrivateCli } from './support/privateCli';
import { populate } from './buildScenario';
import { runBuild } from '../../src/core/build/stages/runBuild';
import { copyCorpus } from '../../src/core/ground/store/copyCorpus';
import { runCli } from '../../src/cli/main';
import { currentPlatform, hugePagesTunables } from '../../src/core/ground/process/hugePages';

/** Keys of examples build 2 kept and build 1 did not: diff prints a line for each, far more than a pipe buffers. */
const ENTERED = 4000;
/** A progress line of build or verify (src/cli/commands/build.ts). */
const PROGRESS = /^(build|verify, rebuilding): \w+ \(\d+\/\d+\)\r?$/m;
const STACK = /^\s+at /m;

const MODES = [
  {
    name: 'relaunched with huge pages',
    env: {} as NodeJS.ProcessEnv,
    applies: () => hugePagesTunables(currentPlatform()) !== undefined,
  },
  { name: 'in one process', env: { REVIEW_CORPUS_NO_HUGE_PAGES: '1' } as NodeJS.ProcessEnv, applies: () => true },
];

describe('CLI in a shell: closed pipes and progress', function () {
  this.timeout(120_000);
  const outDir = path.resolve('out', `test-cli-terminal-${process.pid}`);
  const cli = path.join(outDir, 'cli.js');
  let dir: string;
  let db: string;

  before(async () => {
    bundlePrivateCli(outDir);
    dir = mkdtempSync(path.join(tmpdir(), 'rc-cli-terminal-'));
    db = path.join(dir, 'corpus.sqlite');
    const { store } = await populate(db);
    await runBuild(store);
    const second = await runBuild(store);
    store.transaction(() => {
      for (let i = 0; i < ENTERED; i++) {
        store.run(
          "INSERT INTO decisions(build_id, unit, unit_key, org, window, stage, rule) VALUES (?, 'examples', ?, 'openstack', 'train', 'examples', 'kept')",
          [second.buildId, `openstack/${9000 + i}/1/1/nova/compute/some_module_${i}.py`],
        );
      }
    });
    store.save();
    store.close();
  });
  after(() => {
    rmSync(outDir, { recursive: true, force: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const mode of MODES) {
    describe(`stdout closed early, ${mode.name}`, () => {
      before(function () {
        if (!mode.applies()) this.skip();
      });

      it('diff ends quietly with exit 0 when its reader stops after the first line', async () => {
        const child = spawn(process.execPath, [cli, 'diff', '--db', db, '--from', '1', '--to', '2'], {
          env: { ...process.env, ...mode.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let first = '';
        let stderr = '';
        child.stderr.on('data', (d) => {
          stderr += d;
        });
        child.stdout.on('data', (d) => {
          first += d;
          if (first.includes('\n')) child.stdout.destroy(); // the reader goes away, as head does
        });
        const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
        assert.match(first.split('\n')[0], /^(left|entered)\t/);
        assert.equal(stderr, '', 'nothing on stderr, no stack trace');
        assert.equal(code, 0);
      });

      it('`review-corpus diff … | head -1` prints one line, and the CLI exits 0 without a stack trace', () => {
        const err = path.join(dir, `err-${mode.env.REVIEW_CORPUS_NO_HUGE_PAGES ? 'here' : 'child'}`);
        const status = `${err}.status`;
        const r = spawnSync(
          'sh',
          [
            '-c',
            '{ "$0" "$1" diff --db "$2" --from 1 --to 2 2>"$3"; echo $? >"$4"; } | head -1',
            process.execPath,
            cli,
            db,
            err,
            status,
          ],
          { env: { ...process.env, ...mode.env }, encoding: 'utf8' },
        );
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stdout.split('\n').length, 2, 'one line through head');
        assert.equal(readFileSync(err, 'utf8'), '');
        assert.equal(readFileSync(status, 'utf8').trim(), '0');
      });
    });
  }

  describe('progress of build and verify', () => {
    let hasScript = false;
    before(() => {
      hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
    });

    const copy = (name: string) => {
      const file = path.join(dir, name);
      copyCorpus(db, file);
      return file;
    };
    /** Runs the CLI under `script` (util-linux), so its stdout and stderr are a pseudo-terminal. */
    const onTerminal = (args: string[]) => {
      const quoted = [process.execPath, cli, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
      return spawnSync('script', ['-qec', quoted, '/dev/null'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    };

    // The same decision where `script` is missing: what the CLI's io says of its stderr.
    for (const errIsTTY of [true, false]) {
      it(`build through runCli prints ${errIsTTY ? 'a line per step' : 'no progress'} when err ${errIsTTY ? 'is' : 'is not'} a terminal`, async () => {
        const err: string[] = [];
        const code = await runCli(['build', '--db', copy(`build-io-${errIsTTY}.sqlite`)], {
          out: () => {},
          err: (l) => err.push(l),
          env: {},
          errIsTTY,
        });
        assert.equal(code, 0, err.join('\n'));
        assert.deepEqual(
          err,
          errIsTTY ? ['build: load (1/4)', 'build: comments (2/4)', 'build: examples (3/4)', 'build: write (4/4)'] : [],
        );
      });
    }

    for (const command of [['build'], ['verify', '--reproduce']]) {
      it(`${command[0]} prints progress on stderr when it is a terminal`, function () {
        if (!hasScript) this.skip();
        const r = onTerminal([command[0], '--db', copy(`${command[0]}-tty.sqlite`), ...command.slice(1)]);
        assert.equal(r.status, 0, r.stdout + r.stderr);
        assert.match(r.stdout, PROGRESS);
        assert.doesNotMatch(r.stdout, STACK);
      });

      it(`${command[0]} prints no progress when stderr is a pipe`, () => {
        const r = spawnSync(
          process.execPath,
          [cli, command[0], '--db', copy(`${command[0]}-pipe.sqlite`), ...command.slice(1)],
          { encoding: 'utf8' },
        );
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stderr, '');
        assert.match(r.stdout, command[0] === 'build' ? /^build \d+: /m : /^clean$/m);
      });
    }
  });
});
