// What the package is made of: the VSIX's files (vsce's own listing), its icon and licence, and the
// allowlist of dependency install scripts that npm 11 warns about and npm 12 enforces.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pkg from '../../package.json';
import { blobPackPath } from '../../src/core/ground/store/blobPack';

const ROOT = path.resolve('.'); // scripts/unit.mjs runs mocha from the repository root
const manifest = pkg as unknown as Record<string, unknown> & {
  icon: string;
  allowScripts: Record<string, boolean>;
  contributes: { walkthroughs: { steps: { media: { markdown?: string } }[] }[] };
};

describe('the VSIX', function () {
  this.timeout(120000);
  let files: string[] = [];
  before(() => {
    const listed = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'ls'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(listed.status, 0, listed.stderr);
    files = listed.stdout.split('\n').filter(Boolean);
  });

  it("ships the licence, the icon, the README's images and the walkthrough's pages", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((src) => !/^\w+:/.test(src));
    assert.ok(images.length > 0, 'the README shows an image');
    const walkthroughPages = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown!));
    for (const f of ['LICENSE', manifest.icon, ...images, ...walkthroughPages])
      assert.ok(files.includes(f), `${f} is in the VSIX`);
  });

  it('leaves out the CLI, source maps and sources: the extension runs dist/extension.js and forks dist/worker.js', () => {
    assert.ok(files.includes('dist/extension.js') || !existsSync(path.join(ROOT, 'dist/extension.js')));
    for (const f of files) {
      assert.ok(f !== 'dist/cli.js', 'dist/cli.js is not shipped');
      assert.ok(
        !f.endsWith('.map') && !f.endsWith('.ts') && !f.startsWith('node_modules/') && !f.startsWith('src/'),
        `${f} is not shipped`,
      );
    }
  });

  it('ships the sample corpus whole: its config, its database and the blob pack beside it', () => {
    // Create Sample Corpus copies these; a database without its pack does not open.
    const sample = ['corpus.json', 'corpus.sqlite', blobPackPath('corpus.sqlite')].map((f) => `dist/sample/${f}`);
    assert.ok(existsSync(path.join(ROOT, sample[2])), 'the built sample keeps its file versions in its pack');
    for (const f of sample) assert.ok(files.includes(f), `${f} is in the VSIX`);
  });

  it('names no invented home: no repository or homepage at an .invalid host', () => {
    assert.doesNotMatch(JSON.stringify(pkg), /\.invalid\b/);
  });

  it('carries the MIT licence package.json names', () => {
    assert.equal(pkg.license, 'MIT');
    const license = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
    assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 Review Corpus Inspector contributors\n/);
    assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  });
});

describe('the icon', function () {
  this.timeout(60000);
  it('is a PNG of at least 128×128 holding exactly the pixels scripts/icon.mjs draws from media/review-corpus.svg', async () => {
    const icon = await import(pathToFileURL(path.join(ROOT, 'scripts/icon.mjs')).href);
    const committed = icon.decodePng(readFileSync(path.join(ROOT, manifest.icon)));
    assert.ok(committed.width >= 128 && committed.height >= 128, `${committed.width}×${committed.height}`);
    assert.ok(
      Buffer.compare(committed.pixels, icon.renderPixels()) === 0,
      `${manifest.icon} is not what scripts/icon.mjs draws; run: node scripts/icon.mjs`,
    );
  });
});

describe('allowScripts (dependency install scripts)', function () {
  this.timeout(60000);
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; name?: string }>;
  };
  const withScripts = [
    ...new Set(
      Object.entries(lock.packages)
        .filter(([where, p]) => where !== '' && p.hasInstallScript)
        .map(([where, p]) => p.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    ),
  ].sort();

  it('allows or denies, by name, every locked package that has an install script, and names no other', () => {
    assert.ok(withScripts.includes('esbuild'), 'the lockfile is read');
    // A version-pinned key (esbuild@0.28.2) is not honoured while the lockfile has no `resolved` URLs.
    for (const key of Object.keys(manifest.allowScripts)) assert.doesNotMatch(key, /.@/, `${key} is a bare name`);
    assert.deepEqual(Object.keys(manifest.allowScripts).sort(), withScripts);
  });

  it('leaves nothing for `npm install-scripts ls` to report', () => {
    const listed = spawnSync('npm', ['install-scripts', 'ls', '--json'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), { allowScripts: [] }, listed.stdout);
  });
});
