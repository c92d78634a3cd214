// The shape of the results file the harness writes and the runners read (one JSON object).
export interface TestRecord {
  /** Suite titles from the outermost down, then the test's own title. */
  titlePath: string[];
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: { message: string; stack?: string };
}

export interface SuiteResults {
  /** vscode.version of the host the suite ran in. */
  vscodeVersion?: string;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: TestRecord[];
  /** Set when the suite bundle could not be loaded or mocha itself threw. */
  fatalError?: string;
}

/** A test asks for a window reload by writing this file beside the results (suite/support.ts reloadWindow). */
export const reloadMarkerOf = (resultsFile: string): string => `${resultsFile}.reload`;
