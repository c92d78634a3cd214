// Prints test records ({ titlePath, state, durationMs, error }) the way mocha's spec reporter does.

/** The stack without node-internal frames, indented under the failure. */
function formatError(error) {
  const text = error.stack && error.stack.includes(error.message) ? error.stack : `${error.message}\n${error.stack ?? ''}`;
  return text.split('\n').filter((line) => line.trim() && !/\(node:internal|^\s+at node:/.test(line)).map((l) => `     ${l.trimEnd()}`).join('\n');
}

/** `counts` overrides the tallies, for reporters (json-stream) that do not emit every pending test. */
export function printRecords(tests, { durationMs, counts, log = console.log } = {}) {
  let previous = [];
  const failures = [];
  log('');
  for (const test of tests) {
    const suites = test.titlePath.slice(0, -1);
    let same = 0;
    while (same < suites.length && same < previous.length && suites[same] === previous[same]) same++;
    for (let depth = same; depth < suites.length; depth++) log(`${'  '.repeat(depth + 1)}${suites[depth]}`);
    previous = suites;
    const indent = '  '.repeat(suites.length + 1);
    const title = test.titlePath.at(-1);
    if (test.state === 'passed') log(`${indent}✔ ${title}${test.durationMs >= 75 ? ` (${test.durationMs}ms)` : ''}`);
    else if (test.state === 'pending') log(`${indent}- ${title}`);
    else {
      failures.push(test);
      log(`${indent}${failures.length}) ${title}`);
    }
  }
  const count = (state) => counts?.[state] ?? tests.filter((t) => t.state === state).length;
  log('');
  log(`  ${count('passed')} passing${durationMs !== undefined ? ` (${Math.round(durationMs)}ms)` : ''}`);
  if (count('pending')) log(`  ${count('pending')} pending`);
  if (count('failed')) log(`  ${count('failed')} failing`);
  failures.forEach((test, i) => {
    log('');
    log(`  ${i + 1}) ${test.titlePath.join('\n       ')}:`);
    log(formatError(test.error ?? { message: 'failed without an error' }));
  });
  log('');
}
