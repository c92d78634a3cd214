import path from 'node:path';
import { buildSampleCorpus } from './sample-corpus';

// node out/sample-corpus.js <folder> [--serve]: with --serve the fake hosts stay up (for "Fetch from
// Hosts" inside VS Code) until SIGINT or SIGTERM.
const args = process.argv.slice(2);
const serve = args.includes('--serve');
const folder = args.find((a) => !a.startsWith('--')) ?? path.join(process.cwd(), 'dist', 'sample');
buildSampleCorpus(folder, { log: (l) => console.log(l), keepHostsRunning: serve }).then(
  (r) => {
    console.log(`sample corpus: ${r.configFile}`);
    if (!serve) return;
    for (const h of r.hosts) console.log(`serving ${h.org} at ${h.url}`);
    const stop = () => void r.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (e: Error) => {
    console.error(`sample corpus: ${e.message}`);
    process.exit(1);
  },
);
