// ESLint (flat config): `npm run lint`, and the first step of `npm test`. The recommended sets of
// ESLint and typescript-eslint (not the type-checked ones: tsc already checks types, and those would
// double the time), the layering of src/core as rules (docs/architecture.md), and no import cycles.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import local from './scripts/lint/noImportCycle.mjs';

/** src/core runs in the CLI, the job process and the tests: it never reaches into the editor or the CLI. */
const CORE_IMPORTS = {
  paths: [
    {
      name: 'vscode',
      message: 'src/core never imports vscode: it runs in the CLI and the job process too. Pass what it needs in.',
    },
  ],
  patterns: [
    {
      // Relative paths out of src/core into src/extension(.ts) or src/cli (a folder of that name inside core does not exist).
      regex: '^(\\.\\./)+(extension|cli)(\\.ts)?(/|$)',
      message: 'src/core never imports src/extension or src/cli: those import the core, not the other way.',
    },
    {
      regex: '(^|/)src/(extension|cli)(\\.ts)?(/|$)',
      message: 'src/core never imports src/extension or src/cli: those import the core, not the other way.',
    },
  ],
};

export default defineConfig(
  {
    // Generated, installed or recorded: not ours to lint.
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.vscode-test/',
      '.tmp/',
      'test-results/',
      'sample/',
      'media/',
      'docs/',
      'test/fake-gerrit/recordings/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { local },
    rules: {
      'local/no-import-cycle': 'error',
      // Unused names are errors, but `_` marks one kept on purpose (a callback's unused parameter), and a
      // `catch (e)` that ignores e is how a deliberate fallback reads.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Off: matching control characters is the point of those regexes (host text is escaped or refused for them).
      'no-control-regex': 'off',
      // Off: help and table output is indented and aligned by spaces; a regex that shows them reads like the output.
      'no-regex-spaces': 'off',
    },
  },
  {
    files: ['src/core/**'],
    rules: { 'no-restricted-imports': ['error', CORE_IMPORTS], 'local/layer-order': 'error' },
  },
  {
    // A function fits a screen: one over 80 lines has seams to split it along (issue #32).
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // The funnel webview runs in the browser, not in Node.
    files: ['webview/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Its functions are sent to the workbench page (page.evaluate) and run there.
    files: ['test/integration/bridge-server.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
