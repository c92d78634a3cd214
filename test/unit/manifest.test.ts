import assert from 'node:assert/strict';
import pkg from '../../package.json';
import { Commands } from '../../src/extension/ids/commands';
import { Colors } from '../../src/extension/ids/colors';
import { Views } from '../../src/extension/ids/views';
import { ContextKeys, TreeStates } from '../../src/extension/ids/contextKeys';
import { SETTINGS_SECTION, Settings } from '../../src/extension/ids/settings';
import { KeyBindings } from '../../src/extension/ids/keybindings';

describe('package.json contributions', () => {
  it('contributes exactly the ids of the Commands module, each in the "Review Corpus" category', () => {
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(contributed, Object.values(Commands).sort());
    for (const c of pkg.contributes.commands) assert.equal(c.category, 'Review Corpus');
  });

  it('contributes every theme colour with light, dark and high-contrast defaults', () => {
    const colors = new Map(pkg.contributes.colors.map((c) => [c.id, c.defaults as Record<string, string>]));
    for (const id of Object.values(Colors)) {
      const d = colors.get(id);
      assert.ok(d, `colour ${id} is contributed`);
      for (const k of ['light', 'dark', 'highContrast']) assert.ok(d[k], `${id} has a ${k} default`);
    }
  });

  it('gives the actions of one view title distinct icons (Rebuild is not Refresh)', () => {
    const icons = new Map(pkg.contributes.commands.map((c) => [c.command, (c as { icon?: string }).icon]));
    const titled = (pkg.contributes.menus['view/title'] as { command: string; when?: string; group?: string }[]).filter(
      (m) => (m.when ?? '').includes('view == reviewCorpus.tree') && (m.group ?? '').startsWith('navigation'),
    );
    const seen = new Map<string, string>();
    for (const m of titled) {
      const icon = icons.get(m.command);
      assert.ok(icon, `${m.command} has an icon`);
      assert.ok(!seen.has(icon), `${m.command} and ${seen.get(icon)} share the icon ${icon}`);
      seen.set(icon, m.command);
    }
  });

  it('gives the tree one welcome per state, in when clauses of the ContextKeys and TreeStates ids only', () => {
    const welcomes = (pkg.contributes.viewsWelcome as { view: string; contents: string; when?: string }[]).filter(
      (w) => w.view === 'reviewCorpus.tree',
    );
    const keys = new Set<string>(Object.values(ContextKeys));
    const states = new Set<string>(Object.values(TreeStates));
    for (const w of welcomes) {
      assert.ok(w.when, `the welcome "${w.contents.split('\n')[0]}" names its state`);
      for (const key of w.when.match(/reviewCorpus\.\w+/g) ?? []) assert.ok(keys.has(key), `${key} is in ContextKeys`);
      for (const [, value] of w.when.matchAll(/treeState == (\w+)/g))
        assert.ok(states.has(value), `${value} is in TreeStates`);
    }
    for (const state of [TreeStates.none, TreeStates.notFetched, TreeStates.notBuilt]) {
      assert.equal(
        welcomes.filter((w) => w.when?.includes(`treeState == ${state}`)).length,
        1,
        `one welcome for ${state}`,
      );
    }
    assert.equal(
      welcomes.filter((w) => w.when?.includes(ContextKeys.filterActive)).length,
      1,
      'one welcome for a filter that matches nothing',
    );
  });

  it('contributes every setting of the Settings module, each with a scope', () => {
    const properties = pkg.contributes.configuration.properties as Record<string, { scope?: string }>;
    for (const key of Object.values(Settings)) {
      const p = properties[`${SETTINGS_SECTION}.${key}`];
      assert.ok(p, `${SETTINGS_SECTION}.${key} is contributed`);
      assert.ok(p.scope, `${SETTINGS_SECTION}.${key} has a scope`);
    }
    assert.equal(
      (properties['reviewCorpus.diff.wholeFile'] as { default?: unknown }).default,
      true,
      'whole files by default',
    );
  });

  it('contributes the view container and the view under the ids of the Views module', () => {
    assert.deepEqual(
      pkg.contributes.viewsContainers.activitybar.map((c) => c.id),
      [Views.container],
    );
    assert.deepEqual(Object.keys(pkg.contributes.views), [Views.container]);
    assert.deepEqual(
      pkg.contributes.views[Views.container].map((v) => v.id),
      [Views.tree],
    );
  });

  it('contributes exactly the keys of the KeyBindings table, naming only ContextKeys', () => {
    assert.deepEqual(pkg.contributes.keybindings, KeyBindings);
    const keys = new Set<string>(Object.values(ContextKeys));
    for (const k of KeyBindings)
      for (const key of k.when.match(/reviewCorpus\.[a-zA-Z]+(?![.\w])/g) ?? [])
        assert.ok(keys.has(key) || key === Views.tree, `${key} (${k.command}) is in ContextKeys`);
  });

  it('targets VS Code 1.100 and names the CLI bin', () => {
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.equal(pkg.bin['review-corpus'], './dist/cli.js');
  });
});
