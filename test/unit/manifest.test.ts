import assert from 'node:assert/strict';
import pkg from '../../package.json';
import { Commands } from '../../src/extension/ids/commands';
import { Colors } from '../../src/extension/ids/colors';

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
    const titled = (pkg.contributes.menus['view/title'] as { command: string; when?: string; group?: string }[]).filter((m) => (m.when ?? '').includes('view == reviewCorpus.tree') && (m.group ?? '').startsWith('navigation'));
    const seen = new Map<string, string>();
    for (const m of titled) {
      const icon = icons.get(m.command);
      assert.ok(icon, `${m.command} has an icon`);
      assert.ok(!seen.has(icon), `${m.command} and ${seen.get(icon)} share the icon ${icon}`);
      seen.set(icon, m.command);
    }
  });

  it('targets VS Code 1.100 and names the CLI bin', () => {
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.equal(pkg.bin['review-corpus'], './dist/cli.js');
  });
});
