// What the bulk-fetch benchmarks share (fetch-bulk.ts, journal-saves.ts): the corpus config that
// fetches the bulk fake host at pace 0, and the parent's reading of a child's tagged stdout line.
import type { ChildProcess } from 'node:child_process';
import { BULK_ORG } from '../test/fake-gerrit/bulkFixture';
import { validateCorpusConfig } from '../src/core/rules/corpusJson/loadConfig';
import type { CorpusConfig } from '../src/core/ground/config/types';
import { CORPUS_START, WINDOWS } from '../test/fake-gerrit/fixtures/scenarioOptions';

/** Fabricated: protects nothing. */
export const BENCH_SALT = 'bench-salt-fabricated-not-secret';

/** The default windows (as the fake Gerrit's scenario has them), one host: the bulk fake host at `url`, no pacing. */
export function bulkFetchConfig(name: string, url: string): CorpusConfig {
  return validateCorpusConfig(
    {
      name,
      start: CORPUS_START,
      salt: { env: 'REVIEW_CORPUS_SALT' },
      windows: WINDOWS,
      hosts: [{ org: BULK_ORG, url, query: 'status:merged', minIntervalMs: 0 }],
      rules: {},
    },
    'bench corpus.json',
  );
}

/** The first stdout line a child marks with `tag` (anything else it prints is ignored). */
export function taggedLine(child: ChildProcess, tag: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (d: Buffer) => {
      text += d.toString();
      const line = text.split('\n').find((l, i, all) => i < all.length - 1 && l.startsWith(`${tag} `));
      if (line !== undefined) resolve(line.slice(tag.length + 1));
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${tag}`)));
  });
}
