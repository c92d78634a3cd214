// What both launchers share: the per-run temp layout, the user settings, and reading, printing and judging results.
import {
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecPrinter } from './report.mjs';
import { mapResultStacks, stackMapper } from './stack-map.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const envNames = JSON.parse(readFileSync(new URL('./env-names.json', import.meta.url), 'utf8'));
export const RESULTS_DIR = path.join(ROOT, 'test-results');
/** The last run's results, for people and (with its own path, so parallel runs don't mix) scripts/test-all.mjs. */
export const RESULTS_JSON = process.env.REVIEW_CORPUS_IT_RESULTS_JSON || path.join(RESULTS_DIR, 'integration.json');
const FIXTURE_WORKSPACE = path.join(ROOT, 'test', 'fixtures', 'workspace');

const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  // Built-in extensions otherwise send telemetry; offline, the failed DNS lookup surfaces as an uncaught
  // exception in the extension host, which mocha (rightly) pins on whichever test is running.
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
};

export const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const elapsed = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

export function grepArg(argv) {
  const at = argv.indexOf('--grep');
  return at >= 0 ? argv[at + 1] : undefined;
}

export function startRun(requiredFiles) {
  rmSync(RESULTS_JSON, { force: true });
  mkdirSync(RESULTS_DIR, { recursive: true });
  for (const file of requiredFiles) {
    if (!existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing; run: node scripts/build.mjs`);
  }
}

/** A fresh temp layout per run, so runs never see each other's state and tests never touch the repo. */
export function prepareTempDirs() {
  const tmp = mkdtempSync(path.join(tmpdir(), 'review-corpus-it-'));
  const dirs = {
    tmp,
    userDataDir: path.join(tmp, 'user-data'),
    extensionsDir: path.join(tmp, 'extensions'),
    workspace: path.join(tmp, 'workspace'),
    bridge: path.join(tmp, 'bridge'),
    resultsFile: path.join(tmp, 'results.json'),
  };
  mkdirSync(path.join(dirs.userDataDir, 'User'), { recursive: true });
  mkdirSync(dirs.extensionsDir);
  mkdirSync(dirs.bridge);
  writeFileSync(path.join(dirs.userDataDir, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  if (existsSync(FIXTURE_WORKSPACE)) cpSync(FIXTURE_WORKSPACE, dirs.workspace, { recursive: true });
  else mkdirSync(dirs.workspace);
  return dirs;
}

/**
 * The harness to package: `harnessDir` itself, or (with `bundle`, e.g. a benchmark suite) a copy of it in the
 * run's temp dir whose suite is that bundle, so the shared out/test/harness/ is never changed.
 */
export function withSuiteBundle(harnessDir, bundle, tmp) {
  if (!bundle) return harnessDir;
  if (!existsSync(bundle)) throw new Error(`REVIEW_CORPUS_IT_SUITE: ${bundle} does not exist`);
  const copy = path.join(tmp, 'harness');
  cpSync(harnessDir, copy, { recursive: true });
  copyFileSync(bundle, path.join(copy, 'suite', 'integration.js'));
  const map = path.join(copy, 'suite', 'integration.js.map');
  rmSync(map, { force: true });
  if (existsSync(`${bundle}.map`)) copyFileSync(`${bundle}.map`, map);
  return copy;
}

/** The verdict on a results file: null when the run passed, else one line saying why not. */
export function verdict(results) {
  if (results.fatalError) return `the suite did not run: ${results.fatalError.split('\n')[0]}`;
  if (results.failed > 0) return `${results.failed} integration test(s) failed`;
  if (results.passed === 0) return 'the integration suite ran zero tests';
  return null;
}

/**
 * Follows the harness's progress file (one JSON line per test start and outcome) and prints each outcome as it
 * happens, so a slow or hanging suite shows where it is.
 */
export class ProgressFollower {
  printer = new SpecPrinter();
  /** The test that has started and not finished, if any. */
  running = null;
  #offset = 0;
  #partial = '';

  #mapStack = stackMapper(ROOT);

  constructor(resultsFile) {
    this.file = `${resultsFile}.progress.jsonl`;
  }

  poll() {
    if (!existsSync(this.file)) return;
    const fd = openSync(this.file, 'r');
    try {
      const buffer = Buffer.alloc(64 * 1024);
      let read;
      while ((read = readSync(fd, buffer, 0, buffer.length, this.#offset)) > 0) {
        this.#offset += read;
        this.#partial += buffer.toString('utf8', 0, read);
      }
    } finally {
      closeSync(fd);
    }
    const lines = this.#partial.split('\n');
    this.#partial = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const event = JSON.parse(line);
      if (event.state === 'running') this.running = event;
      else {
        this.running = null;
        if (event.error?.stack) event.error.stack = this.#mapStack(event.error.stack);
        this.printer.test(event);
      }
    }
  }

  /** One line naming the test still running, for timeout messages. */
  describeRunning() {
    return this.running ? `; still running: ${this.running.titlePath.join(' > ')}` : '';
  }
}

/** Reads the harness's results file, finishes printing it, saves it; returns the verdict (null: passed). */
export function reportResults(resultsFile, launcher, follower) {
  const results = mapResultStacks(JSON.parse(readFileSync(resultsFile, 'utf8')), ROOT);
  mkdirSync(path.dirname(RESULTS_JSON), { recursive: true });
  writeFileSync(RESULTS_JSON, JSON.stringify(results, null, 2));
  // Outcomes the progress file had not shown yet (both list the same events in the same order).
  follower.poll();
  for (const test of results.tests.slice(follower.printer.printed)) follower.printer.test(test);
  follower.printer.summary({
    counts: { passed: results.passed, failed: results.failed, pending: results.pending },
    durationMs: results.durationMs,
  });
  if (results.fatalError) console.error(results.fatalError);
  console.log(
    `${results.passed + results.failed} test(s) ran inside VS Code ${results.vscodeVersion ?? '?'} (${launcher}), ${results.pending} pending`,
  );
  return verdict(results);
}

/** Removes the run's temp dir, unless the run failed (its logs are evidence) or REVIEW_CORPUS_IT_KEEP=1. */
export function finishRun(dirs, failure, started) {
  if (failure || process.env.REVIEW_CORPUS_IT_KEEP === '1')
    console.error(`run files (logs, user data, workspace) kept in ${dirs.tmp}`);
  else rmSync(dirs.tmp, { recursive: true, force: true });
  console.log(`integration run took ${elapsed(started)}`);
  if (failure) {
    console.error(`integration: FAILED: ${failure}`);
    process.exitCode = 1;
  }
}
