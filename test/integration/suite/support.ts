// Shared set-up for the suites that work on the sample corpus: the extension's API, a sample corpus
// copied into the test workspace by the real "Create Sample Corpus" command, and small lookups.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import type { ReviewCorpusApi } from '../../../src/extension';
import type { CorpusStore } from '../../../src/core/ground/store/corpusStore';
import { localUserPseudonym } from '../../../src/core/ground/privacy/localUser';
import envNames from '../env-names.json';
import { reloadMarkerOf } from '../harness/src/results';

export const SAMPLE_SALT = 'sample-salt-fabricated-not-secret';
/**
 * The rater pseudonym the extension records for this machine's user with the sample salt. The sample
 * corpus carries its audit raters' labels too (scripts/sample-corpus.ts), so a test reads its own.
 */
export const localRater = (): string => localUserPseudonym(SAMPLE_SALT);
/** The extension's id: publisher.name in package.json. */
export const EXTENSION_ID = 'review-corpus.review-corpus';

export async function api(): Promise<ReviewCorpusApi> {
  const ext = vscode.extensions.getExtension<ReviewCorpusApi>(EXTENSION_ID);
  assert.ok(ext, 'the extension is installed');
  return ext.activate();
}

export function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace is open');
  return folder.uri.fsPath;
}

/** Copies the shipped sample corpus into a fresh folder of the workspace and opens it. */
export async function openSampleCorpus(name: string): Promise<ReviewCorpusApi> {
  const a = await api();
  await vscode.commands.executeCommand('reviewCorpus.setSalt', SAMPLE_SALT);
  const folder = path.join(workspaceDir(), name);
  await vscode.commands.executeCommand('reviewCorpus.createSampleCorpus', folder);
  // The corpus open before may still be the session's for a moment (a reload it had started): wait for this one.
  await until(`the sample corpus in ${name} is open`, () =>
    a.session.corpus && path.dirname(a.session.corpus.dbFile) === folder ? true : undefined,
  );
  assert.notEqual(a.session.corpus!.buildId, undefined, 'the sample corpus is built');
  return a;
}

/** The id (in the current build) of the example holding a comment, by its Gerrit comment id. */
export function exampleIdOfComment(a: ReviewCorpusApi, gerritId: string): number {
  const c = a.session.corpus!;
  const id = c.store.scalar(
    'SELECT x.example_id FROM example_comments x JOIN comments cm ON cm.id = x.comment_id JOIN examples e ON e.id = x.example_id WHERE cm.gerrit_id = ? AND e.build_id = ?',
    [gerritId, c.buildId!],
  );
  assert.ok(typeof id === 'number', `an example holds ${gerritId}`);
  return id;
}

export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const plainText = (t: string) => t.replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');

/** Whether the palette lists the command `title` when it is typed after `>`. */
export async function inPalette(title: string): Promise<boolean> {
  await vscode.commands.executeCommand('workbench.action.quickOpen', `>${title}`);
  try {
    // Filtered, the list holds the command, or (none matching) the palette's "similar commands" or "No matching commands".
    let shown: string[] = [];
    const rows = await until(
      `the palette filtered for ${title}`,
      async () => {
        shown = (await dom.query('.quick-input-widget .monaco-list-row')).map((r) => plainText(r.ariaLabel ?? r.text));
        return shown.some((r) => r.startsWith(title) || /similar commands|no matching commands/i.test(r))
          ? shown
          : undefined;
      },
      10000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(shown)}`);
    });
    return rows.some((r) => r.startsWith(title));
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
}

/** The notifications shown in the bottom right corner. */
export const TOAST = '.notifications-toasts .notification-toast';

/** Waits for a notification saying `Review Corpus: <line>` (its text with runs of white space as one space). */
export function untilNotification(what: string, line: string, timeoutMs = 20000): Promise<true> {
  return until(
    what,
    async () =>
      (await dom.query(TOAST)).some((t) => t.text.replace(/\s+/g, ' ').includes(`Review Corpus: ${line}`)) || undefined,
    timeoutMs,
  );
}

/** Waits for a status bar entry whose text (its icons left out) matches; answers that text. */
export function untilStatusBar(pattern: RegExp, timeoutMs = 10000): Promise<string> {
  const plain = (t: string) =>
    t
      .replace(/\u00a0/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return until(
    `a status bar entry matching ${pattern}`,
    async () => (await dom.query('.statusbar-item')).map((i) => plain(i.text)).find((t) => pattern.test(t)),
    timeoutMs,
  );
}

/** The extension host's child processes running dist/worker.js (jobs, the saver), with their environment. */
export function workerProcesses(): { pid: number; env: string[] }[] {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return ''; // ended meanwhile
    }
  };
  return read(`/proc/${process.pid}/task/${process.pid}/children`)
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((pid) =>
      read(`/proc/${pid}/cmdline`)
        .split('\0')
        .some((arg) => arg.endsWith('/dist/worker.js')),
    )
    .map((pid) => ({ pid, env: read(`/proc/${pid}/environ`).split('\0') }));
}

/** Makes the sample's stored records `copies` times larger, so a rebuild takes seconds, not milliseconds. */
export function multiplyRecords(store: CorpusStore, copies: number): void {
  for (let k = 1; k <= copies; k++) {
    const o = k * 1_000_000;
    store.run(
      `INSERT INTO changes(id, host_id, number, change_key, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error)
      SELECT id + ?, host_id, number + ?, change_key || '-' || ?, project, branch, created, updated, owner, total_comment_count, collection_rule, fetch_state, fetch_error
      FROM changes WHERE id < 1000000`,
      [o, o * 10, k],
    );
    store.run(
      `INSERT INTO revisions(change_id, patch_set, sha, kind, uploader, created)
      SELECT change_id + ?, patch_set, sha, kind, uploader, created FROM revisions WHERE change_id < 1000000`,
      [o],
    );
    store.run(
      `INSERT INTO comments(id, change_id, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character, in_reply_to, author, message, updated, unresolved)
      SELECT id + ?, change_id + ?, gerrit_id, path, patch_set, side, line, start_line, start_character, end_line, end_character, in_reply_to, author, message, updated, unresolved
      FROM comments WHERE id < 1000000`,
      [o, o],
    );
    // The copies share their file versions' blobs (src/core/ground/store/diffText.ts), as copies on a host would.
    store.run(
      `INSERT INTO diffs(id, change_id, path, ps_base, ps_target, content, fetch_error, a_sha256, b_sha256, structure, layout)
      SELECT id + ?, change_id + ?, path, ps_base, ps_target, content, fetch_error, a_sha256, b_sha256, structure, layout FROM diffs WHERE id < 1000000`,
      [o, o],
    );
  }
}

/**
 * Reloads the window, as Developer: Reload Window does; never returns. The harness then runs the suite
 * again in the new extension host, leaving out the tests that finished: the calling test runs again and
 * must tell from a file of its own that it is past the reload.
 */
export async function reloadWindow(): Promise<never> {
  const resultsFile = process.env[envNames.results];
  assert.ok(resultsFile, 'the harness set the results path');
  writeFileSync(reloadMarkerOf(resultsFile), '');
  // Not awaited: the command is cancelled as this extension host goes, and that must not end the test.
  vscode.commands.executeCommand('workbench.action.reloadWindow').then(undefined, () => undefined);
  return new Promise<never>(() => undefined);
}
