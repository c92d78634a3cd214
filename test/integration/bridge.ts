// DOM access for tests running inside the extension host, which cannot see the workbench page.
// Each call writes a request file into the bridge directory (path from the environment); the runner
// answers it with Playwright on the workbench page and writes an answer file, which we wait for.
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import envNames from './env-names.json';

/** What `dom.query` tells about one matching element. */
export interface ElementInfo {
  tag: string;
  id: string;
  className: string;
  ariaLabel: string | null;
  title: string | null;
  text: string;
  visible: boolean;
}

const POLL_MS = 50;
/** How long the runner may take beyond the operation's own timeout before we give up on it. */
const ANSWER_MARGIN_MS = 15000;
const DEFAULT_WAIT_MS = 10000;
let sequence = 0;

function bridgeDir(): string {
  const dir = process.env[envNames.bridge];
  if (!dir)
    throw new Error(
      `${envNames.bridge} is not set: DOM checks need test/integration/run-code-server.mjs (or run-desktop.mjs)`,
    );
  return dir;
}

async function ask<T>(op: string, args: Record<string, unknown>, opTimeoutMs = 0): Promise<T> {
  const dir = bridgeDir();
  const id = `${process.pid}-${Date.now()}-${++sequence}`;
  const request = path.join(dir, `req-${id}.json`);
  const answer = path.join(dir, `res-${id}.json`);
  writeFileSync(`${request}.partial`, JSON.stringify({ op, args }));
  renameSync(`${request}.partial`, request);
  const deadline = Date.now() + opTimeoutMs + ANSWER_MARGIN_MS;
  while (!existsSync(answer)) {
    if (Date.now() > deadline)
      throw new Error(`dom.${op}: the runner did not answer within ${opTimeoutMs + ANSWER_MARGIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const reply = JSON.parse(readFileSync(answer, 'utf8')) as { ok: boolean; value?: T; error?: string };
  unlinkSync(answer);
  if (!reply.ok) throw new Error(`dom.${op}: ${reply.error}`);
  return reply.value as T;
}

export const dom = {
  /** Every element (up to 100) matching a CSS selector on the workbench page. */
  query: (selector: string) => ask<ElementInfo[]>('query', { selector }),
  /** The visible text of the first element matching the selector; throws if none matches. */
  text: (selector: string) => ask<string>('text', { selector }),
  /** How many elements on the workbench page match the selector. */
  count: (selector: string) => ask<number>('count', { selector }),
  /** Saves test-results/<name>.png (name: letters, digits, '.', '-', '_') and returns its path. */
  screenshot: (name: string) => ask<string>('screenshot', { name }),
  /** Presses keys on the page, e.g. 'Control+Shift+P'; several chords separated by spaces are pressed in turn. */
  press: (keys: string) => ask<void>('press', { keys }),
  /**
   * Presses each step's chord `atMs` after the first step started (timed by the runner, not across the
   * bridge); answers when each press started. For keys typed at a person's pace while the workbench works.
   */
  keyScript: (steps: { keys: string; atMs: number }[]) =>
    ask<number[]>('keyScript', { steps }, (steps.at(-1)?.atMs ?? 0) + steps.length * 1000),
  /** Waits until an element matching the selector is visible; throws after timeoutMs. */
  waitFor: (selector: string, timeoutMs = DEFAULT_WAIT_MS) => ask<void>('waitFor', { selector, timeoutMs }, timeoutMs),
  /** The text of the first element matching the selector in any frame, webviews included; waits up to timeoutMs for it. */
  frameText: (selector: string, timeoutMs = DEFAULT_WAIT_MS) =>
    ask<string>('frameText', { selector, timeoutMs }, timeoutMs),
  /** How many elements match the selector across all frames, webviews included. */
  frameCount: (selector: string) => ask<number>('frameCount', { selector }),
  /** The computed CSS `content` of a pseudo-element ('::before'/'::after') of every matching element (none → omitted). */
  pseudoContent: (selector: string, pseudo: '::before' | '::after') =>
    ask<string[]>('pseudoContent', { selector, pseudo }),
  /** Clicks the first visible element matching a Playwright selector (CSS, with :has-text() allowed). */
  click: (selector: string, timeoutMs = DEFAULT_WAIT_MS) => ask<void>('click', { selector, timeoutMs }, timeoutMs),
  /** Moves the mouse over the first visible element matching a Playwright selector (a tree item's tooltip then shows). */
  hover: (selector: string, timeoutMs = DEFAULT_WAIT_MS) => ask<void>('hover', { selector, timeoutMs }, timeoutMs),
  /** Clicks the first element matching a Playwright selector in any frame, webviews included; waits up to timeoutMs for it. */
  frameClick: (selector: string, timeoutMs = DEFAULT_WAIT_MS) =>
    ask<void>('frameClick', { selector, timeoutMs }, timeoutMs),
};
