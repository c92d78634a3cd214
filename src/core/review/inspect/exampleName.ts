// An example's name as a user knows it: organization, change number, file and line (the hunk's first
// line in patch set N), e.g. "openstack #930005 nova/compute/manager.py line 120". The one formatter
// every message, tooltip and placeholder uses; never a row id, which changes at each rebuild.

import type { CorpusStore } from '../../ground/store/corpusStore';

export interface ExampleNameParts {
  org: string;
  changeNumber: number;
  path: string;
  /** The hunk's first line in patch set N; absent: not known. */
  line?: number | null;
}

export function exampleName(e: ExampleNameParts): string {
  const line = e.line === undefined || e.line === null ? '' : ` line ${e.line}`;
  return `${e.org} #${e.changeNumber} ${e.path}${line}`;
}

/** The same name read from an example key (exampleStage.ts exampleKey: org/change/patch set/line/path); undefined: not one. */
export function exampleNameOfKey(key: string): string | undefined {
  const m = /^([^/]+)\/(\d+)\/\d+\/(\d+)\/(.+)$/s.exec(key);
  return m ? exampleName({ org: m[1], changeNumber: Number(m[2]), line: Number(m[3]), path: m[4] }) : undefined;
}

/** The name of the example with row `id` in any build the file holds; undefined: none. */
export function exampleNameOfId(store: CorpusStore, id: number): string | undefined {
  const key = store.scalar('SELECT example_key FROM examples WHERE id = ?', [id]);
  return typeof key === 'string' ? exampleNameOfKey(key) : undefined;
}
