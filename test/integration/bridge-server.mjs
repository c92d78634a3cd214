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
      if (handle) return await handle.evaluate((e) => (e.innerText ?? e.textContent ?? '').trim());
    }
    if (Date.now() > deadline) throw new Error(`no frame has an element matching ${selector} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const profiling = new WeakMap();

/**
 * Runs in the page: resolves window.__benchWatches[id] with the page clock (epoch ms) at the first animation
 * frame in which `selector` matches a rendered element (and, with `textIn`, some `textIn.selector` element's
 * text holds `textIn.text`). A frame's callback runs just before that frame is painted.
 */
function installFrameWatcher({ id, selector, textIn }) {
  const watches = (window.__benchWatches ??= {});
  watches[id] = new Promise((resolve) => {
    const seen = () => {
      const e = document.querySelector(selector);
      if (!e || !(e.offsetWidth || e.offsetHeight)) return false;
      return (
        !textIn ||
        [...document.querySelectorAll(textIn.selector)].some((t) => (t.textContent ?? '').includes(textIn.text))
      );
    };
    const frame = () => (seen() ? resolve(performance.timeOrigin + performance.now()) : requestAnimationFrame(frame));
    requestAnimationFrame(frame);
  });
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
      if (!/^[\w.-]+$/.test(name))
        throw new Error(`screenshot name ${JSON.stringify(name)} may hold only letters, digits, '.', '-', '_'`);
      mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, name.endsWith('.png') ? name : `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async press({ keys }) {
      for (const chord of keys.split(' ').filter(Boolean)) await page.keyboard.press(chord);
    },
    // Keys at set times, as a person types them: each step presses its chord `atMs` after the script
    // started, timed here in the runner (the host's request polling would blur the gaps). Returns when
    // each press started, from the script's start.
    async keyScript({ steps }) {
      const start = performance.now();
      const pressedAt = [];
      for (const { keys, atMs } of steps) {
        const wait = start + atMs - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        pressedAt.push(Math.round(performance.now() - start));
        await page.keyboard.press(keys);
      }
      return pressedAt;
    },
    async waitFor({ selector, timeoutMs }) {
      try {
        await page.waitForSelector(selector, { state: 'visible', timeout: timeoutMs });
      } catch (err) {
        if (err?.name === 'TimeoutError')
          throw new Error(`no visible element matches ${selector} after ${timeoutMs} ms`);
        throw err;
      }
    },
    frameText: ({ selector, timeoutMs }) => findInFrames(page, selector, timeoutMs),
    async frameCount({ selector }) {
      let n = 0;
      for (const frame of page.frames())
        n += await frame
          .locator(selector)
          .count()
          .catch(() => 0);
      return n;
    },
    pseudoContent: ({ selector, pseudo }) =>
      page.$$eval(
        selector,
        (elements, p) =>
          elements
            .map((e) => getComputedStyle(e, p).content)
            .filter((c) => c && c !== 'none' && c !== 'normal')
            .map((c) => (c.startsWith('"') ? JSON.parse(c) : c)),
        pseudo,
      ),
    // For benchmarks: the page's clock (epoch ms), and a watcher that runs in the page itself, checking a native
    // CSS selector once per animation frame, so the wait costs the renderer one querySelector a frame.
    pageClock: () => page.evaluate(() => performance.timeOrigin + performance.now()),
    watchVisible: ({ id, selector, textIn }) => page.evaluate(installFrameWatcher, { id, selector, textIn }),
    watchedAt: ({ id, timeoutMs }) =>
      page.evaluate(
        ({ id: key, timeoutMs: ms }) =>
          Promise.race([
            window.__benchWatches[key],
            new Promise((_, reject) => setTimeout(() => reject(new Error(`watch ${key} saw nothing in ${ms} ms`)), ms)),
          ]).finally(() => delete window.__benchWatches[key]),
        { id, timeoutMs },
      ),
    // The renderer's CPU profile over a stretch of a benchmark (Chrome DevTools Protocol), saved beside the screenshots.
    async cpuProfileStart() {
      const cdp = await page.context().newCDPSession(page);
      profiling.set(page, cdp);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
      await cdp.send('Profiler.start');
    },
    async cpuProfileStop({ name }) {
      if (!/^[\w.-]+$/.test(name))
        throw new Error(`profile name ${JSON.stringify(name)} may hold only letters, digits, '.', '-', '_'`);
      const cdp = profiling.get(page);
      if (!cdp) throw new Error('cpuProfileStop without cpuProfileStart');
      profiling.delete(page);
      const { profile } = await cdp.send('Profiler.stop');
      await cdp.detach();
      mkdirSync(screenshotDir, { recursive: true });
      const file = path.join(screenshotDir, `${name}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return file;
    },
    async click({ selector, timeoutMs }) {
      await page.locator(selector).first().click({ timeout: timeoutMs });
    },
    async hover({ selector, timeoutMs }) {
      await page.locator(selector).first().hover({ timeout: timeoutMs });
    },
    // A click inside a webview: the first frame holding a match gets it (webviews are nested iframes).
    async frameClick({ selector, timeoutMs }) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (const frame of page.frames()) {
          const target = frame.locator(selector).first();
          if ((await target.count().catch(() => 0)) > 0)
            return void (await target.click({ timeout: Math.max(1000, deadline - Date.now()) }));
        }
        if (Date.now() > deadline)
          throw new Error(`no frame has an element matching ${selector} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
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

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
