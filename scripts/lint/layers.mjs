// The layers of src/core, lowest first: the one list the lint rule `local/layer-order` enforces and
// docs/architecture.md describes (test/unit/lint.test.ts checks both against it and against the tree).
// A module may import from its own layer and from the layers listed before it, never from one after.
export const LAYERS = [
  {
    name: 'ground',
    holds: 'store, text, stats, privacy, process, config',
    role: 'the corpus file, plain helpers, and what corpus.json holds',
  },
  {
    name: 'gerrit',
    holds: 'the REST client, pacing, robots, pseudonymization, the fetch',
    role: 'fetching records from hosts',
  },
  {
    name: 'rules',
    holds: 'one rule per file by stage, dedup, decontam, corpusJson',
    role: 'the rules, their parameters and the corpus.json they validate',
  },
  {
    name: 'build',
    holds: 'stages, records, reports, halves, flags, judgments',
    role: 'running the rules over a corpus into a recorded build',
  },
  {
    name: 'review',
    holds: 'labels, judge, quality, diversity, inspect',
    role: 'looking at a build: labels, model judges, agreement, the inspector’s reads',
  },
  {
    name: 'publish',
    holds: 'export, versions, verify',
    role: 'what leaves the corpus file: exports, the card, tags, reproduction',
  },
  { name: 'jobs', holds: 'jobs, edits', role: 'the long-running jobs and the saver the CLI and the extension start' },
];
