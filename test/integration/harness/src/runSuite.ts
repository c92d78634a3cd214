// Runs the compiled integration suite with mocha inside the extension host and collects a JSON-able record of it.
import Mocha from 'mocha';
import { renameSync, writeFileSync } from 'node:fs';
import envNames from '../../env-names.json';
import type { SuiteResults, TestRecord } from './results';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

function describeError(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return { message: err.message, stack: err.stack };
  return { message: String(err) };
}

export function runSuite(suiteFile: string): Promise<SuiteResults> {
  // Stack traces then point at test/integration/suite/*.test.ts instead of the bundle.
  process.setSourceMapsEnabled(true);
  const tests: TestRecord[] = [];
  const started = Date.now();

  // A silent reporter: the extension host's console is not where anyone looks; the runner prints the results.
  class Collector extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => tests.push({ titlePath: t.titlePath(), state: 'passed', durationMs: t.duration }));
      runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => tests.push({ titlePath: t.titlePath(), state: 'pending' }));
      // Also fires for failing hooks, whose title says which hook ("before all" hook for "…").
      runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: unknown) =>
        tests.push({ titlePath: t.titlePath(), state: 'failed', durationMs: t.duration, error: describeError(err) }));
    }
  }

  const timeout = Number(process.env[envNames.testTimeoutMs] || 30000);
  const grep = process.env[envNames.grep] || undefined;
  const mocha = new Mocha({ ui: 'bdd', reporter: Collector, timeout, color: false, grep });
  mocha.addFile(suiteFile);

  const summarize = (fatalError?: string): SuiteResults => ({
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    durationMs: Date.now() - started,
    tests,
    ...(fatalError ? { fatalError } : {}),
  });

  return new Promise((resolve) => {
    try {
      // run() loads the suite with require(), so `vscode` resolves to the extension host's API.
      mocha.run(() => resolve(summarize()));
    } catch (err) {
      const { message, stack } = describeError(err);
      resolve(summarize(`could not load ${suiteFile}: ${stack ?? message}`));
    }
  });
}

/** Written to a temporary name first, so a reader never sees half a file. */
export function writeResults(file: string, results: SuiteResults): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, JSON.stringify(results, null, 2));
  renameSync(partial, file);
}
