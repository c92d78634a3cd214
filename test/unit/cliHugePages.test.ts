// The CLI runs whole-corpus commands in a child with transparent huge pages (src/cli/relaunch.ts, src/core/ground/process/hugePages.ts):
// when it does, and that the relaunch is invisible to the user: same output and exit code, Ctrl-C
// sent to the CLI's pid still cancels cleanly, and kill -9 of the CLI leaves no child writing on.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentPlatform, hugePagesTunables, HUGE_PAGES_TUNABLE } from '../../src/core/ground/process/hugePages';
import { copyCorpus, filesBeside } from '../../src/core/ground/store/copyCorpus';
import { blobPackPath } from '../../src/core/ground/store/blobPack';

const CLI = path.resolve('dist/cli.js');
const SAMPLE = path.resolve('dist/sample/corpus.sqlite');

const linux = (mode: string, env: NodeJS.ProcessEnv = {}, glibc = true) =>
  hugePagesTunables({ platform: 'linux', env, thpMode: () => mode, glibc: () => glibc });

describe('CLI: huge pages for whole-corpus commands', function () {
  this.timeout(120_000);

  describe('when it relaunches', () => {
    it('asks for huge pages where THP is madvise, under glibc', () => {
      assert.equal(linux('always [madvise] never\n'), HUGE_PAGES_TUNABLE);
    });
    it('keeps the tunables already set, adding its own', () => {
      assert.equal(
        linux('always [madvise] never', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }),
        `glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}`,
      );
    });
    it("never twice, and never against the user's own hugetlb setting", () => {
      assert.equal(linux('always [madvise] never', { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }), undefined);
      assert.equal(linux('always [madvise] never', { GLIBC_TUNABLES: HUGE_PAGES_TUNABLE }), undefined);
    });
    it('not where it gains nothing: THP always or never, no THP file, another C library, another OS, or opted out', () => {
      assert.equal(linux('[always] madvise never'), undefined);
      assert.equal(linux('always madvise [never]'), undefined);
      assert.equal(
        hugePagesTunables({ platform: 'linux', env: {}, thpMode: () => undefined, glibc: () => true }),
        undefined,
      );
      assert.equal(linux('always [madvise] never', {}, false), undefined);
      assert.equal(
        hugePagesTunables({ platform: 'darwin', env: {}, thpMode: () => 'always [madvise] never', glibc: () => true }),
        undefined,
      );
      assert.equal(linux('always [madvise] never', { REVIEW_CORPUS_NO_HUGE_PAGES: '1' }), undefined);
    });
  });

  describe('through dist/cli.js on this machine', () => {
    let dir: string;
    before(function () {
      if (!existsSync(CLI) || !existsSync(SAMPLE)) throw new Error('dist/ is missing: run npm run build first');
      if (hugePagesTunables(currentPlatform()) === undefined) this.skip(); // this machine would run in-process
      dir = mkdtempSync(path.join(tmpdir(), 'rc-huge-'));
    });
    after(() => dir && rmSync(dir, { recursive: true, force: true }));

    const run = (args: string[], env: NodeJS.ProcessEnv) =>
      spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

    it('prints the same funnel and exit code as the in-process run', () => {
      const relaunched = run(['funnel', '--db', SAMPLE, '--json'], { REVIEW_CORPUS_DEBUG: '1' });
      const here = run(['funnel', '--db', SAMPLE, '--json'], {
        REVIEW_CORPUS_NO_HUGE_PAGES: '1',
        REVIEW_CORPUS_DEBUG: '1',
      });
      assert.match(relaunched.stderr, /running funnel with GLIBC_TUNABLES=.*glibc\.malloc\.hugetlb=1/);
      assert.doesNotMatch(here.stderr, /GLIBC_TUNABLES/);
      assert.equal(relaunched.status, 0, relaunched.stderr);
      assert.equal(relaunched.stdout, here.stdout);
      assert.ok(JSON.parse(relaunched.stdout).organizations);
    });

    it('passes on a one-line error and its exit code', () => {
      const r = run(['funnel', '--db', path.join(dir, 'missing.sqlite')], {});
      assert.equal(r.status, 2);
      assert.equal(r.stderr.trim(), `review-corpus: ${path.join(dir, 'missing.sqlite')}: no such file`);
    });

    describe('signals during a build', () => {
      let generated: string;
      before(function () {
        this.timeout(180_000);
        // A generated corpus big enough that its build runs for seconds (bench/generate.ts).
        generated = path.join(dir, 'generated.sqlite');
        const g = spawnSync(
          process.execPath,
          ['bench/run.mjs', 'generate', '--examples', '20000', '--out', generated],
          { encoding: 'utf8' },
        );
        assert.equal(g.status, 0, g.stderr);
      });

      /** Starts `build` on a fresh copy and resolves once the CLI's child (the relaunched build) runs. */
      async function startBuild(name: string) {
        const db = path.join(dir, name);
        copyCorpus(generated, db);
        const cli = spawn(process.execPath, [CLI, 'build', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        cli.stderr.on('data', (d) => {
          stderr += d;
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
          cli.on('exit', (code, signal) => resolve({ code, signal })),
        );
        let child: number | undefined;
        for (let i = 0; i < 200 && child === undefined; i++) {
          await new Promise((r) => setTimeout(r, 25));
          child = childrenOf(cli.pid as number)[0];
        }
        assert.ok(child, 'the CLI started its relaunched child');
        await new Promise((r) => setTimeout(r, 1000)); // well into the build (opened, reading)
        return { db, cli, child, exited, stderr: () => stderr };
      }

      it("SIGINT to the CLI's pid alone cancels the build cleanly: exit 130, file untouched", async () => {
        const { db, cli, child, exited, stderr } = await startBuild('interrupted.sqlite');
        cli.kill('SIGINT');
        const end = await exited;
        assert.equal(end.code, 130, stderr());
        assert.match(stderr(), /^review-corpus: cancelled$/m);
        assert.equal(alive(child), false);
        assert.deepEqual(readFileSync(db), readFileSync(generated));
      });

      it('kill -9 of the CLI ends its child too, leaving the file as it was', async () => {
        const { db, cli, child, exited } = await startBuild('killed.sqlite');
        cli.kill('SIGKILL');
        assert.equal((await exited).signal, 'SIGKILL');
        for (let i = 0; i < 100 && alive(child); i++) await new Promise((r) => setTimeout(r, 20));
        assert.equal(alive(child), false, 'the child stopped with its parent');
        assert.deepEqual(readFileSync(db), readFileSync(generated));
        assert.deepEqual(readFileSync(blobPackPath(db)), readFileSync(blobPackPath(generated)), 'its pack as it was');
        const corpusFiles = [db, ...filesBeside(db)].map((f) => path.basename(f));
        assert.deepEqual(
          readdirSync(dir).filter((f) => f.includes('killed.sqlite') && !corpusFiles.includes(f)),
          [],
          'no temp file left',
        );
      });
    });
  });
});

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Running (a zombie nobody has reaped yet counts as ended). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
