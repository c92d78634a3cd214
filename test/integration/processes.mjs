// Stops processes we started, by process id: the process itself and every descendant it left
// (code-server leaves a --type=fileWatcher child). Never by name.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process's start time (field 22 of /proc/<pid>/stat), so a recycled pid is never mistaken for ours;
 * null when it is gone or a zombie (dead, waiting to be reaped, which may never happen under some init).
 */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : fields[19];
  } catch {
    return null;
  }
}

function childrenOf(pid) {
  const out = [];
  let tasks = [];
  try { tasks = readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const task of tasks) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch { /* the thread ended while we looked */ }
  }
  return out;
}

/** The pid and all its descendants, parents first, each with its depth and start time. */
export function processTree(pid) {
  const tree = [];
  const queue = [{ pid, depth: 0 }];
  while (queue.length > 0) {
    const next = queue.shift();
    const started = startTime(next.pid);
    if (started === null) continue;
    tree.push({ ...next, started });
    queue.push(...childrenOf(next.pid).map((child) => ({ pid: child, depth: next.depth + 1 })));
  }
  return tree;
}

const isSame = ({ pid, started }) => startTime(pid) === started;

function signal({ pid }, sig) {
  try { process.kill(pid, sig); } catch { /* already gone */ }
}

async function waitGone(processes, ms) {
  const deadline = Date.now() + ms;
  while (processes.some(isSame) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Stops the tree deepest processes first, so each parent is still alive to reap its children (an orphan
 * would be left to init, which in a container may never reap it). SIGTERM, then SIGKILL after graceMs.
 */
export async function stopTree(pid, graceMs = 5000) {
  if (!pid) return;
  const tree = processTree(pid);
  const depths = [...new Set(tree.map((p) => p.depth))].sort((a, b) => b - a);
  for (const depth of depths) {
    const level = tree.filter((p) => p.depth === depth);
    for (const p of level) signal(p, 'SIGTERM');
    await waitGone(level, graceMs / depths.length);
  }
  // Children can appear while a parent shuts down; look again before the hard stop.
  const survivors = [...tree.filter(isSame), ...tree.flatMap((p) => (isSame(p) ? processTree(p.pid) : []))];
  for (const p of survivors.reverse()) if (isSame(p)) signal(p, 'SIGKILL');
  await waitGone(survivors, 1000);
}

/** Synchronous last resort for process 'exit': SIGKILL the trees of the given pids. */
export function killTreesNow(pids) {
  for (const pid of pids) for (const p of processTree(pid)) signal(p, 'SIGKILL');
}
