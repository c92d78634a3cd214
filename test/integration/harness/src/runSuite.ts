// Runs the compiled integration suite with mocha inside the extension host and collects a JSON-able record of it.
import Mocha from 'mocha';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import envNames from '../../env-names.json';
import type { SuiteResults, TestRecord } from './results';

const { EVENT_TEST_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

function describeError(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return { message: err.message, stack: err.stack };
  return { message: String(err) };
}

/** The file beside the results file that gets one JSON line per test event while the suite runs. */
export const progressFileOf = (resultsFile: string): string => `${resultsFile}.progress.jsonl`;

/** The outcomes the progress file holds: the tests that finished before a reload. */
export function finishedTests(progressFile: string): TestRecord[] {
  if (!existsSync(progressFile)) return [];
  return readFileSync(progressFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TestRecord | { state: 'running' })
    .filter((t): t is TestRecord => t.state !== 'running');
}

/** Leaves out the tests that have finished (by title path), and the suites left with none. */
function skipFinished(suite: Mocha.Suite, finished: Set<string>): void {
  suite.tests = suite.tests.filter((t) => !finished.has(JSON.stringify(t.titlePath())));
  for (const child of suite.suites) skipFinished(child, finished);
  suite.suites = suite.suites.filter((child) => child.total() > 0);
}

/**
 * Runs the suite; with `progressFile`, each test's start and outcome is appended there as it happens.
 * `finished`: after a reload a test asked for, the outcomes from before it; those tests are not run
 * again, and the one that asked runs again (it reads its own marker to know it is past the reload).
 */
export function runSuite(suiteFile: string, progressFile?: string, finished: TestRecord[] = []): Promise<SuiteResults> {
  // Stack traces then point at test/integration/suite/*.test.ts instead of the bundle.
  process.setSourceMapsEnabled(true);
  const tests: TestRecord[] = [...finished];
  const started = Date.now() - finished.reduce((ms, t) => ms + (t.durationMs ?? 0), 0);

  // A silent reporter: the extension host's console is not where anyone looks; the runner prints the results.
  const progress = (line: object) => {
    if (progressFile) appendFileSync(progressFile, `${JSON.stringify(line)}\n`);
  };
  const record = (test: TestRecord) => {
    tests.push(test);
    progress(test);
  };
  class Collector extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      runner.on(EVENT_TEST_BEGIN, (t: Mocha.Test) => progress({ titlePath: t.titlePath(), state: 'running' }));
      runner.on(EVENT_TEST_PASS, (t: Mocha.Test) =>
        record({ titlePath: t.titlePath(), state: 'passed', durationMs: t.duration }),
      );
      runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => record({ titlePath: t.titlePath(), state: 'pending' }));
      // Also fires for failing hooks, whose title says which hook ("before all" hook for "…").
      runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: unknown) =>
        record({ titlePath: t.titlePath(), state: 'failed', durationMs: t.duration, error: describeError(err) }),
      );
    }
  }

  const timeout = Number(process.env[envNames.testTimeoutMs] || 30000);
  const grep = process.env[envNames.grep] || undefined;
  const mocha = new Mocha({ ui: 'bdd', reporter: Collector, timeout, color: false, grep });
  mocha.addFile(suiteFile);

  const summarize = (fatalError?: string): SuiteResults => summarizeTests(tests, started, fatalError);

  return new Promise((resolve) => {
    try {
      // run() loads the suite with require(), so `vscode` resolves to the extension host's API.
      if (finished.length > 0) {
        // Loaded here to be pruned; lazyLoadFiles: run() must not load them again (both public in mocha 11, not in its types).
        const loader = mocha as unknown as { loadFiles(): void; lazyLoadFiles(on: boolean): void };
        loader.loadFiles();
        loader.lazyLoadFiles(true);
        skipFinished(mocha.suite, new Set(finished.map((t) => JSON.stringify(t.titlePath))));
      }
      mocha.run(() => resolve(summarize()));
    } catch (err) {
      const { message, stack } = describeError(err);
      resolve(summarize(`could not load ${suiteFile}: ${stack ?? message}`));
    }
  });
}

export function summarizeTests(tests: TestRecord[], started: number, fatalError?: string): SuiteResults {
  return {
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    durationMs: Date.now() - started,
    tests,
    ...(fatalError ? { fatalError } : {}),
  };
}

/** Written to a temporary name first, so a reader never sees half a file. */
export function writeResults(file: string, results: SuiteResults): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, JSON.stringify(results, null, 2));
  renameSync(partial, file);
}
