// Where the extension host's main thread spends its time during one step: a V8 CPU profile taken in-process
// (node:inspector), summed per function. Used once per step after the timed runs, so it never skews them.
import { Session } from 'node:inspector';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotFunction {
  fn: string;
  ms: number;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T))),
  );
}

/** Runs `work` under the CPU profiler; returns its wall time and our extension's functions by inclusive time. */
export async function profileStep(
  work: () => Promise<unknown>,
  ownBundle = /review-corpus[^/]*\/dist\/extension\.js$/,
  top = 8,
): Promise<{ wallMs: number; sampledMs: number; ours: HotFunction[]; self: HotFunction[] }> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 250 });
    await post(session, 'Profiler.start');
    const t0 = performance.now();
    await work();
    const wallMs = performance.now() - t0;
    const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
    return { wallMs, ...summarize(profile, ownBundle, top) };
  } finally {
    session.disconnect();
  }
}

const nameOf = (n: ProfileNode) => n.callFrame.functionName || '(anonymous)';

function summarize(
  profile: Profile,
  ownBundle: RegExp,
  top: number,
): { sampledMs: number; ours: HotFunction[]; self: HotFunction[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let sampledMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(id)!;
    if (nameOf(leaf) === '(idle)') return;
    sampledMs += ms;
    const leafName = ownBundle.test(leaf.callFrame.url)
      ? nameOf(leaf)
      : `${nameOf(leaf)} [${leaf.callFrame.url.split('/').pop() || 'native'}]`;
    self.set(leafName, (self.get(leafName) ?? 0) + ms);
    // Each of our functions on the stack counts once per sample, however deep the recursion.
    const seen = new Set<string>();
    for (let n: ProfileNode | undefined = leaf; n; n = parent.has(n.id) ? byId.get(parent.get(n.id)!) : undefined) {
      // Anonymous and one- or two-letter (sql.js's minified) names say nothing; their named callers do.
      if (!ownBundle.test(n.callFrame.url) || nameOf(n).length <= 2 || !n.callFrame.functionName) continue;
      const key = nameOf(n);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  });
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, top)
      .map(([fn, ms]) => ({ fn, ms: Math.round(ms) }));
  return { sampledMs: Math.round(sampledMs), ours: ranked(inclusive), self: ranked(self) };
}
