// Starts dist/worker.js as a process of the extension's own, for work that holds a whole corpus in
// memory (jobs, the background saver). A process rather than a worker thread of the extension host:
// it starts on huge pages where that helps (core/ground/process/hugePages.ts), its copy of the corpus never
// counts against the host, and its page faults and collections do not contend with the host's.
import { fork, type ChildProcess } from 'node:child_process';
import { currentPlatform, hugePagesTunables } from '../../core/ground/process/hugePages';

/** `onStderr` receives what the process writes to stderr; without it, stderr goes to the host's. */
export function forkWorkerProcess(
  workerFile: string,
  onStderr?: (text: string) => void,
): { child: ChildProcess; tunables: string | undefined } {
  const tunables = hugePagesTunables(currentPlatform());
  const child = fork(workerFile, [], {
    // ELECTRON_RUN_AS_NODE: in desktop VS Code process.execPath is the editor's own binary.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...(tunables ? { GLIBC_TUNABLES: tunables } : {}) },
    // Not the host's flags: an --inspect port of the host's would clash.
    execArgv: [],
    stdio: ['ignore', 'ignore', onStderr ? 'pipe' : 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  if (onStderr) child.stderr?.setEncoding('utf8').on('data', (d: string) => onStderr(d.trimEnd()));
  return { child, tunables };
}
