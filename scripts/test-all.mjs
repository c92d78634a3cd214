// `npm test`: type-check, build, unit suite, integration suite (inside code-server). Each suite prints its
// own output; the last line is one summary over all of them: `N passed, N failed[, N skipped]`.
// A step that fails without test results (type-check, build, a crashed suite) counts as one failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { printRecords } from '../test/integration/report.mjs';
import { RESULTS_JSON } from '../test/integration/run-common.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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

/** mocha's json-stream reporter, turned back into spec-style output while we count. */
async function runUnitSuite() {
  heading('unit tests');
  const child = spawn(process.execPath, ['scripts/unit.mjs', '--reporter=json-stream'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const tests = [];
  let stats = null;
  for await (const line of createInterface({ input: child.stdout })) {
    let event = null;
    if (line.startsWith('["')) try { event = JSON.parse(line); } catch { /* a test printed something bracketed */ }
    if (!event) { console.log(line); continue; }
    const [kind, data] = event;
    if (kind === 'end') { stats = data; continue; }
    if (kind !== 'pass' && kind !== 'fail') continue;
    const suite = data.fullTitle.slice(0, data.fullTitle.length - data.title.length).trim();
    tests.push({
      titlePath: suite ? [suite, data.title] : [data.title],
      state: kind === 'pass' ? 'passed' : 'failed',
      durationMs: data.duration,
      ...(kind === 'fail' ? { error: { message: data.err, stack: data.stack ?? undefined } } : {}),
    });
  }
  const code = await new Promise((resolve) => child.on('close', (c, signal) => resolve(c ?? signal)));
  if (!stats) {
    failStep(`unit tests did not finish (exit ${code})`);
    return;
  }
  printRecords(tests, { durationMs: stats.duration, counts: { passed: stats.passes, failed: stats.failures, pending: stats.pending } });
  totals.passed += stats.passes;
  totals.failed += stats.failures;
  totals.skipped += stats.pending;
  if (code !== 0 && stats.failures === 0) failStep(`unit tests exited with ${code} although no test failed`);
}

function runIntegrationSuite() {
  heading('integration tests (VS Code 1.100.3 in code-server)');
  const result = spawnSync(process.execPath, ['test/integration/run-code-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(RESULTS_JSON)) {
    failStep(`integration tests produced no results (exit ${result.status ?? result.signal})`);
    return;
  }
  const results = JSON.parse(readFileSync(RESULTS_JSON, 'utf8'));
  totals.passed += results.passed;
  totals.failed += results.failed;
  totals.skipped += results.pending;
  if (result.status !== 0 && results.failed === 0) failStep('integration suite failed without a failing test (zero tests ran, or the suite did not load)');
}

const typeChecked = runStep('type-check (tsc --noEmit -p .)', [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.']);
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
