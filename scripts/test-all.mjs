// `npm test`: lint, format check, type-check, build, unit suite, integration suite (inside code-server).
// Each suite prints its own output; the last line is one summary over all of them: `N passed, N failed[, N skipped]`.
// A step that fails without test results (lint, format, type-check, build, a crashed or stuck suite) counts as one failure.
// Environment: REVIEW_CORPUS_UNIT_TIMEOUT_MS (unit suite, default 900000); see run-code-server.mjs for the rest.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopTree } from '../test/integration/processes.mjs';
import { SpecPrinter } from '../test/integration/report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const UNIT_TIMEOUT_MS = Number(process.env.REVIEW_CORPUS_UNIT_TIMEOUT_MS || 900000);
/** How long the unit process may linger after mocha reported the end (open timers, sockets, workers). */
const EXIT_GRACE_MS = 15000;
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function heading(title) {
  console.log(`\n=== ${title} ===`);
}

function failStep(message) {
  totals.failed += 1;
  problems.push(message);
}

function runStep(title, args) {
  heading(title);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) failStep(`${title} failed (exit ${result.status ?? result.signal})`);
  return result.status === 0;
}

/** mocha's json-stream reporter, turned back into spec-style lines as tests finish, while we count. */
async function runUnitSuite() {
  heading('unit tests');
  const child = spawn(process.execPath, ['scripts/unit.mjs', '--reporter=json-stream'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  const printer = new SpecPrinter();
  let stats = null;
  let stuck = null;
  const stop = (why) => {
    stuck ??= why;
    void stopTree(child.pid);
  };
  const overall = setTimeout(
    () => stop(`unit tests did not finish within ${UNIT_TIMEOUT_MS} ms (REVIEW_CORPUS_UNIT_TIMEOUT_MS)`),
    UNIT_TIMEOUT_MS,
  );
  let lingering = null;

  for await (const line of createInterface({ input: child.stdout })) {
    let event = null;
    if (line.startsWith('["'))
      try {
        event = JSON.parse(line);
      } catch {
        /* a test printed something bracketed */
      }
    if (!event) {
      console.log(line);
      continue;
    }
    const [kind, data] = event;
    if (kind === 'end') {
      stats = data;
      lingering = setTimeout(
        () =>
          stop(
            `the unit test process did not exit within ${EXIT_GRACE_MS} ms after its tests finished (a test left a timer, socket or worker open)`,
          ),
        EXIT_GRACE_MS,
      );
    }
    if (kind !== 'pass' && kind !== 'fail') continue;
    const suite = data.fullTitle.slice(0, data.fullTitle.length - data.title.length).trim();
    printer.test({
      titlePath: suite ? [suite, data.title] : [data.title],
      state: kind === 'pass' ? 'passed' : 'failed',
      durationMs: data.duration,
      ...(kind === 'fail' ? { error: { message: data.err, stack: data.stack ?? undefined } } : {}),
    });
  }
  const code = await exited;
  clearTimeout(overall);
  clearTimeout(lingering);
  if (stats) {
    printer.summary({
      counts: { passed: stats.passes, failed: stats.failures, pending: stats.pending },
      durationMs: stats.duration,
    });
    totals.passed += stats.passes;
    totals.failed += stats.failures;
    totals.skipped += stats.pending;
  }
  if (stuck) failStep(stuck);
  else if (!stats) failStep(`unit tests did not finish (exit ${code})`);
  else if (code !== 0 && stats.failures === 0) failStep(`unit tests exited with ${code} although no test failed`);
}

function runIntegrationSuite() {
  heading('integration tests (VS Code 1.100.3 in code-server)');
  // Our own results path: another run in this checkout (by hand, say) must not be counted as ours.
  const dir = mkdtempSync(path.join(tmpdir(), 'review-corpus-test-all-'));
  const resultsJson = path.join(dir, 'integration.json');
  try {
    const result = spawnSync(process.execPath, ['test/integration/run-code-server.mjs'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, REVIEW_CORPUS_IT_RESULTS_JSON: resultsJson },
    });
    if (!existsSync(resultsJson)) {
      failStep(`integration tests produced no results (exit ${result.status ?? result.signal})`);
      return;
    }
    const results = JSON.parse(readFileSync(resultsJson, 'utf8'));
    totals.passed += results.passed;
    totals.failed += results.failed;
    totals.skipped += results.pending;
    if (result.status !== 0 && results.failed === 0)
      failStep('integration suite failed without a failing test (zero tests ran, or the suite did not load)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Lint and format first: each is one step (one failure when it finds anything), and the suites run either way.
if (runStep('lint (eslint .)', [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '.']))
  console.log('no lint problems');
runStep('format (prettier --check .)', [path.join(ROOT, 'node_modules/prettier/bin/prettier.cjs'), '--check', '.']);
const typeChecked = runStep('type-check (tsc --noEmit -p .)', [
  path.join(ROOT, 'node_modules/typescript/bin/tsc'),
  '--noEmit',
  '-p',
  '.',
]);
if (typeChecked) console.log('no type errors');
if (runStep('build', ['scripts/build.mjs'])) {
  await runUnitSuite();
  runIntegrationSuite();
} else {
  problems.push('unit and integration tests were not run: the build failed');
}

console.log('');
for (const problem of problems) console.log(`! ${problem}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exitCode = totals.failed > 0 || problems.length > 0 ? 1 : 0;
