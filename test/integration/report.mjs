// Prints test records ({ titlePath, state, durationMs, error }) the way mocha's spec reporter does,
// one test at a time as they arrive, then the tallies and the failures.

/** The stack without node-internal frames, indented under the failure. */
function formatError(error) {
  const text =
    error.stack && error.stack.includes(error.message) ? error.stack : `${error.message}\n${error.stack ?? ''}`;
  return text
    .split('\n')
    .filter((line) => line.trim() && !/\(node:internal|^\s+at node:/.test(line))
    .map((l) => `     ${l.trimEnd()}`)
    .join('\n');
}

export class SpecPrinter {
  printed = 0;
  tally = { passed: 0, failed: 0, pending: 0 };
  #previous = [];
  #failures = [];

  constructor(log = console.log) {
    this.log = log;
  }

  test(test) {
    const suites = test.titlePath.slice(0, -1);
    if (this.printed === 0) this.log('');
    let same = 0;
    while (same < suites.length && same < this.#previous.length && suites[same] === this.#previous[same]) same++;
    for (let depth = same; depth < suites.length; depth++) this.log(`${'  '.repeat(depth + 1)}${suites[depth]}`);
    this.#previous = suites;
    const indent = '  '.repeat(suites.length + 1);
    const title = test.titlePath.at(-1);
    if (test.state === 'passed')
      this.log(`${indent}✔ ${title}${test.durationMs >= 75 ? ` (${test.durationMs}ms)` : ''}`);
    else if (test.state === 'pending') this.log(`${indent}- ${title}`);
    else {
      this.#failures.push(test);
      this.log(`${indent}${this.#failures.length}) ${title}`);
    }
    this.printed += 1;
    this.tally[test.state] += 1;
  }

  /** `counts` ({ passed, failed, pending }) default to what was printed; json-stream, say, prints no pending tests. */
  summary({ counts = this.tally, durationMs } = {}) {
    const count = (state) => counts[state] ?? 0;
    this.log('');
    this.log(`  ${count('passed')} passing${durationMs !== undefined ? ` (${Math.round(durationMs)}ms)` : ''}`);
    if (count('pending')) this.log(`  ${count('pending')} pending`);
    if (count('failed')) this.log(`  ${count('failed')} failing`);
    this.#failures.forEach((test, i) => {
      this.log('');
      this.log(`  ${i + 1}) ${test.titlePath.join('\n       ')}:`);
      this.log(formatError(test.error ?? { message: 'failed without an error' }));
    });
    this.log('');
  }
}
