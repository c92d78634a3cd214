// Plan Fetch… and the fetch's progress notification inside the real VS Code, against the sample Gerrit
// served from the extension host: the plan is a read-only document made from probes of each listing;
// the progress shows changes fetched, the rate and the time left, and a fetch started again after a
// stop goes on from the totals in the corpus file.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { dom } from '../bridge';
import { startSampleHosts } from '../../fake-gerrit/server';
import { sampleConfig, sampleHostSetup } from '../../../scripts/sample-corpus';
import { api, inPalette, SAMPLE_SALT, TOAST, until, workspaceDir } from './support';

/** Every notification's text, '' while there is none. */
async function toasts(): Promise<string> {
  return (await dom.query(TOAST)).map((t) => t.text.replace(/\s+/g, ' ')).join(' | ');
}

/** Each host's "fetched/to fetch" in the notification, by org. */
function fetchedShown(text: string): Map<string, number> {
  return new Map([...text.matchAll(/(\w+): changes, (\d+)\/\d+ changes fetched/g)].map((m) => [m[1], Number(m[2])]));
}

describe('plan and progress of a fetch from the palette', function () {
  this.timeout(240_000);
  let sample: Awaited<ReturnType<typeof startSampleHosts>>;
  let dir: string;

  before(async () => {
    const setup = sampleHostSetup();
    // Slow comments lists keep each host fetching long enough for a rate and a time left.
    const slow = { route: /\/comments$/, kind: 'slow' as const, delayMs: 600, times: 1_000_000 };
    sample = await startSampleHosts({
      ...setup,
      faults: Object.fromEntries(['openstack', 'qt', 'wikimedia'].map((o) => [o, [...(setup.faults[o] ?? []), slow]])),
    });
    dir = path.join(workspaceDir(), 'planned');
    mkdirSync(dir, { recursive: true });
    const configFile = path.join(dir, 'corpus.json');
    writeFileSync(configFile, JSON.stringify(sampleConfig(sample.hosts), null, 2));
    await vscode.commands.executeCommand('reviewCorpus.setSalt', SAMPLE_SALT);
    await vscode.commands.executeCommand('reviewCorpus.openCorpus', configFile);
  });
  after(async () => sample?.close());

  it('plans the fetch from the palette into a read-only document, asking each host only for probes', async () => {
    assert.equal(await inPalette('Review Corpus: Plan Fetch…'), true, 'Plan Fetch… for a corpus.json');
    // Run as a user does: typed into the palette and chosen with Enter.
    await vscode.commands.executeCommand('workbench.action.quickOpen', '>Review Corpus: Plan Fetch…');
    await dom.waitFor('.quick-input-widget .monaco-list-row[aria-label^="Review Corpus: Plan Fetch"]');
    await dom.press('Enter');
    const doc = await until(
      'the plan document',
      () => {
        const d = vscode.window.activeTextEditor?.document;
        return d?.uri.scheme === 'review-corpus-plan' && /Assumed:/.test(d.getText()) ? d : undefined;
      },
      60_000,
    );
    assert.equal(doc.isDirty, false);
    const text = doc.getText();
    for (const host of sample.hosts) {
      assert.ok(text.includes(`\n${host.org} (${host.url})\n`), `a block for ${host.org}`);
      for (const r of host.requests) assert.match(r.path, /^\/robots\.txt$|^\/changes\/\?q=[^&]+&n=1&S=\d+$/);
    }
    assert.match(text, /in range: \d+ changes .* counted with \d+ probes/);
    assert.match(text, /Assumed:/);
    assert.equal(existsSync(path.join(dir, 'corpus.sqlite')), false, 'the plan writes nothing');
  });

  it('shows the rate and the time left, and a fetch run again after a stop goes on from its totals', async () => {
    const a = await api();
    const running = vscode.commands.executeCommand('reviewCorpus.fetch');
    const shown = await until(
      'progress with a rate and a time left',
      async () => {
        const t = await toasts();
        return /\/min\)/.test(t) && /about .+ left/.test(t) ? t : undefined;
      },
      90_000,
    );
    assert.match(
      shown,
      /\d+\/\d+ changes fetched \(\d+ listed\), \d+ requests \(\d+\/min\), [\d.]+ (bytes|kB|MB), \d+ errors?/,
    );
    await dom.screenshot('fetch-progress-rate');
    await dom.click(`${TOAST} a.monaco-button[aria-label^="Cancel"], ${TOAST} .monaco-button:has-text("Cancel")`);
    await running;
    const store = a.session.corpus!.store;
    const inFile = new Map(
      store
        .all<{ org: string; n: number }>(
          "SELECT h.org, count(*) AS n FROM changes c JOIN hosts h ON h.id = c.host_id WHERE c.fetch_state = 'done' AND c.fetch_attempts > 0 GROUP BY h.org",
        )
        .map((r) => [r.org, r.n]),
    );
    const pending = Number(
      store.scalar("SELECT count(*) FROM changes WHERE fetch_state = 'listed' AND collection_rule IS NULL"),
    );
    assert.ok(pending > 0, 'stopped before the end');

    const again = vscode.commands.executeCommand('reviewCorpus.fetch');
    const resumed = await until('the resumed fetch shows its totals', async () => {
      const m = fetchedShown(await toasts());
      return m.size > 0 ? m : undefined;
    });
    for (const [org, n] of resumed)
      assert.ok(n >= (inFile.get(org) ?? 0), `${org}: shows ${n} fetched, the file had ${inFile.get(org)}`);
    await again;
  });
});
