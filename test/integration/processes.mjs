// Stops processes we started, by process id: the process, every descendant it left (code-server leaves a
// --type=fileWatcher child) and, for a process we started as a group leader (spawn's `detached`), every member
// of its process group, which catches children orphaned mid-shutdown. Never by name.
import { readdirSync, readFileSync } from 'node:fs';

/** Fields of /proc/<pid>/stat from field 3 (state) on; null when the process is gone. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * The process's start time (field 22), so a recycled pid is never mistaken for ours; null when it is gone
 * or a zombie (dead, waiting to be reaped, which under some init takes a while).
 */
function startTime(pid) {
  const fields = statFields(pid);
  return !fields || fields[0] === 'Z' ? null : fields[19];
}

function childrenOf(pid) {
  const out = [];
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const task of tasks) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {
      /* the thread ended while we looked */
    }
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

/** Live members of process group `pgid` (field 5 of stat), wherever they were reparented. */
function groupMembers(pgid) {
  const members = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (fields && fields[0] !== 'Z' && Number(fields[2]) === pgid)
      members.push({ pid: Number(name), depth: 0, started: fields[19] });
  }
  return members;
}

const isSame = ({ pid, started }) => startTime(pid) === started;

function signal({ pid }, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

async function waitGone(processes, ms) {
  const deadline = Date.now() + ms;
  while (processes.some(isSame) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Stops the tree deepest processes first, so each parent is still alive to reap its children, then sweeps the
 * process group when `group` (the pid was started as a group leader). SIGTERM, then SIGKILL after graceMs.
 */
export async function stopTree(pid, { group = false, graceMs = 5000 } = {}) {
  if (!pid) return;
  const tree = processTree(pid);
  const depths = [...new Set(tree.map((p) => p.depth))].sort((a, b) => b - a);
  for (const depth of depths) {
    const level = tree.filter((p) => p.depth === depth);
    for (const p of level) signal(p, 'SIGTERM');
    await waitGone(level, graceMs / Math.max(1, depths.length));
  }
  const leftovers = () => [...tree.filter(isSame), ...(group ? groupMembers(pid) : [])];
  const stragglers = leftovers();
  for (const p of stragglers) signal(p, 'SIGTERM');
  await waitGone(stragglers, 1000);
  const survivors = leftovers();
  for (const p of survivors) signal(p, 'SIGKILL');
  await waitGone(survivors, 1000);
}

/** Synchronous last resort for process 'exit': SIGKILL the trees and groups of the given group leaders. */
export function killTreesNow(pids) {
  for (const pid of pids) for (const p of [...processTree(pid), ...groupMembers(pid)]) signal(p, 'SIGKILL');
}
