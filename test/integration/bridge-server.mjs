// The runner's side of test/integration/bridge.ts: answers DOM requests from in-host tests with Playwright.
// Requests arrive as req-<id>.json files in the bridge directory; answers go back as res-<id>.json.
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const POLL_MS = 50;
const MAX_ELEMENTS = 100;

/** Collects facts about elements in the page; runs in the browser, so it must stay self-contained. */
function describeElements(elements, max) {
  return elements.slice(0, max).map((e) => ({
    tag: e.tagName.toLowerCase(),
    id: e.id,
    className: typeof e.className === 'string' ? e.className : '',
    ariaLabel: e.getAttribute('aria-label'),
    title: e.getAttribute('title'),
    text: (e.innerText ?? e.textContent ?? '').trim(),
    visible: !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length),
  }));
}

async function findInFrames(page, selector, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      // A frame can navigate or detach while we look; that frame is simply skipped this round.
      const handle = await frame.$(selector).catch(() => null);
      if (handle) return (await handle.evaluate((e) => (e.innerText ?? e.textContent ?? '').trim()));
    }
    if (Date.now() > deadline) throw new Error(`no frame has an element matching ${selector} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function operations(page, screenshotDir) {
  return {
    query: ({ selector }) => page.$$eval(selector, describeElements, MAX_ELEMENTS),
    count: ({ selector }) => page.locator(selector).count(),
    async text({ selector }) {
      const first = page.locator(selector).first();
      if ((await first.count()) === 0) throw new Error(`no element matches ${selector}`);
      return (await first.innerText()).trim();
    },
    async screenshot({ name }) {
      if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name ${JSON.stringify(name)} may hold only letters, digits, '.', '-', '_'`);
      mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, name.endsWith('.png') ? name : `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async press({ keys }) {
      for (const chord of keys.split(' ').filter(Boolean)) await page.keyboard.press(chord);
    },
    async waitFor({ selector, timeoutMs }) {
      try {
        await page.waitForSelector(selector, { state: 'visible', timeout: timeoutMs });
      } catch (err) {
        if (err?.name === 'TimeoutError') throw new Error(`no visible element matches ${selector} after ${timeoutMs} ms`);
        throw err;
      }
    },
    frameText: ({ selector, timeoutMs }) => findInFrames(page, selector, timeoutMs),
    async frameCount({ selector }) {
      let n = 0;
      for (const frame of page.frames()) n += await frame.locator(selector).count().catch(() => 0);
      return n;
    },
    pseudoContent: ({ selector, pseudo }) => page.$$eval(selector, (elements, p) => elements
      .map((e) => getComputedStyle(e, p).content)
      .filter((c) => c && c !== 'none' && c !== 'normal')
      .map((c) => (c.startsWith('"') ? JSON.parse(c) : c)), pseudo),
    async click({ selector, timeoutMs }) {
      await page.locator(selector).first().click({ timeout: timeoutMs });
    },
  };
}

/**
 * Starts answering requests. `getPage` returns (or resolves to) the workbench page; requests that arrive
 * before it exists wait for it. Returns { stop() }.
 */
export function startBridge({ dir, getPage, screenshotDir }) {
  mkdirSync(dir, { recursive: true });
  const taken = new Set();
  let stopped = false;

  async function answer(id, file) {
    let reply;
    try {
      const { op, args } = JSON.parse(readFileSync(file, 'utf8'));
      unlinkSync(file);
      const ops = operations(await getPage(), screenshotDir);
      if (!Object.hasOwn(ops, op)) throw new Error(`unknown operation ${op}`);
      reply = { ok: true, value: (await ops[op](args)) ?? null };
    } catch (err) {
      reply = { ok: false, error: String(err?.message ?? err).split('\n')[0] };
    }
    if (stopped) return;
    const out = path.join(dir, `res-${id}.json`);
    writeFileSync(`${out}.partial`, JSON.stringify(reply));
    renameSync(`${out}.partial`, out);
  }

  const timer = setInterval(() => {
    for (const name of readdirSync(dir)) {
      const match = /^req-(.+)\.json$/.exec(name);
      if (!match || taken.has(match[1])) continue;
      taken.add(match[1]);
      void answer(match[1], path.join(dir, name));
    }
  }, POLL_MS);

  return { stop() { stopped = true; clearInterval(timer); } };
}
