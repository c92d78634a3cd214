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

  it('targets VS Code 1.100 and names the CLI bin', () => {
    assert.equal(pkg.engines.vscode, '^1.100.0');
    assert.equal(pkg.bin['review-corpus'], './dist/cli.js');
  });
});
