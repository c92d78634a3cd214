// Maps stack frames of the suite bundle back to test/integration/suite/*.test.ts, and drops the harness's
// own frames (mocha internals). Done here, not in the extension host, whose Error.prepareStackTrace belongs to VS Code.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';

const SUITE_FRAME = /([^\s(]*\/suite\/integration\.js):(\d+):(\d+)/;
const HARNESS_FRAME =
  /(review-corpus\.review-corpus-test-harness-[^/]+|out\/test\/harness)\/(extension|runner)\.js:\d+/;

export function stackMapper(root) {
  const mapFile = path.join(root, 'out', 'test', 'integration.js.map');
  if (!existsSync(mapFile)) return (stack) => stack;
  const map = new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')));
  const sourceDir = path.dirname(mapFile);
  const mapLine = (line) =>
    line.replace(SUITE_FRAME, (whole, _file, row, column) => {
      const entry = map.findEntry(Number(row) - 1, Number(column) - 1);
      if (!entry?.originalSource) return whole;
      const source = path.relative(root, path.resolve(sourceDir, entry.originalSource.replace(/^file:\/\//, '')));
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
  return (stack) =>
    stack &&
    stack
      .split('\n')
      .filter((line) => !HARNESS_FRAME.test(line))
      .map(mapLine)
      .join('\n');
}

/** The results with every error stack mapped. */
export function mapResultStacks(results, root) {
  const map = stackMapper(root);
  return {
    ...results,
    ...(results.fatalError ? { fatalError: map(results.fatalError) } : {}),
    tests: results.tests.map((t) => (t.error?.stack ? { ...t, error: { ...t.error, stack: map(t.error.stack) } } : t)),
  };
}
