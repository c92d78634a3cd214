// The built CLI (dist/cli.js) run as a process of its own against loopback fake hosts, its stderr
// read line by line as it comes (each line with the time it arrived); and a config for the bulk host.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { BULK_ORG } from '../../fake-gerrit/bulkFixture';
import { CORPUS_START, WINDOWS } from '../../fake-gerrit/fixtures/scenarioOptions';
import { validateCorpusConfig } from '../../../src/core/rules/corpusJson/loadConfig';
import type { CorpusConfig } from '../../../src/core/ground/config/types';

export const CLI = path.resolve('dist/cli.js');

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
  /** stderr's lines, each with the time (Date.now()) it arrived. */
  errLines: { at: number; line: string }[];
  ms: number;
}

/** Runs the CLI; `onErrLine` sees each stderr line as it arrives (and may stop the child). */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  onErrLine?: (line: string, child: ChildProcess) => void,
): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let partial = '';
    const errLines: CliRun['errLines'] = [];
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        errLines.push({ at: Date.now(), line });
        onErrLine?.(line, child);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err, errLines, ms: Date.now() - started }));
  });
}

/** One host, the bulk fake host at `url`, pace 0, pages of 10 (the fixture's windows). */
export function bulkConfig(url: string, extra: Record<string, unknown> = {}): CorpusConfig {
  return validateCorpusConfig(
    {
      name: 'bulk-test',
      start: CORPUS_START,
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: WINDOWS,
      hosts: [{ org: BULK_ORG, url, query: 'status:merged', minIntervalMs: 0, pageSize: 10, ...extra }],
      rules: {},
    },
    'test corpus.json',
  );
}
