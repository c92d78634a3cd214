// The decontamination step of a build, after the duplicates: which examples overlap a protected
// reference. Two passes:
// 1. every example against the registered sets (protect): the whole corpus, every window, under the
//    rules' policy (rules.protected…);
// 2. only when cross-window decontamination is on (decontam.crossWindow, off by default;
//    crossWindow.ts): examples of the window named "train" against every other window's examples that
//    are still in (set name "window:<name>"), under its own policy. A sealed window has no examples until
//    it is unsealed, so it protects nothing yet. A corpus without a "train" window has no such pass.
// Each pass builds its indexes once (matcher.ts).
import { ProtectedMatcher, type ExampleTexts, type OverlapMatch, type ReferenceText } from './matcher';
import type { MatchingPolicy } from './policy';

export const TRAIN_WINDOW = 'train';

/** What decontamination protects: the registered sets' texts and, when on, the cross-window pass. */
export interface Protection {
  references: readonly ReferenceText[];
  crossWindow?: CrossWindowPass;
}

/** The cross-window pass: the windows protected against train (none: no pass) and its matching policy. */
export interface CrossWindowPass {
  protectedWindows: readonly string[];
  policy: MatchingPolicy;
}
export const AUTOMATIC_SET_PREFIX = 'window:';

export interface DecontamCandidate {
  key: string;
  window: string | null;
  texts: ExampleTexts;
}

/** Every window but train (none when no window is named train): those cross-window decontamination protects. */
export function automaticWindows(windowNames: readonly string[]): string[] {
  return windowNames.includes(TRAIN_WINDOW) ? windowNames.filter((w) => w !== TRAIN_WINDOW) : [];
}

/** candidate index → its overlap; candidates not in the map are kept. */
export function findProtectedOverlaps(
  candidates: readonly DecontamCandidate[],
  registered: readonly ReferenceText[],
  policy: MatchingPolicy,
  crossWindow?: CrossWindowPass,
): Map<number, OverlapMatch> {
  return twoPassMatches(candidates, {
    registered,
    policy,
    crossWindow,
    windowTexts: (c, set) => [
      { set, id: c.key, field: 'before', text: c.texts.before },
      { set, id: c.key, field: 'after', text: c.texts.after },
      ...c.texts.comments.map((comment) => ({ set, id: c.key, field: 'comment' as const, text: comment.message })),
    ],
    match: (matcher, c) => matcher.match(c.texts),
  });
}

/** What a unit kind (examples, or comments in protectComments.ts) gives the two passes. */
export interface TwoPassSpec<C, M> {
  registered: readonly ReferenceText[];
  /** The registered sets' policy. */
  policy: MatchingPolicy;
  /** Absent (or no protected window): no second pass. */
  crossWindow?: CrossWindowPass;
  /** The texts candidate `c` of a protected window adds under `set` ("window:<name>"); none to add nothing. */
  windowTexts: (c: C, set: string) => ReferenceText[];
  match: (matcher: ProtectedMatcher, c: C) => M | null;
}

/** The two passes of the header, for any unit kind: candidate index → its match. */
export function twoPassMatches<C extends { key: string; window: string | null }, M>(
  candidates: readonly C[],
  spec: TwoPassSpec<C, M>,
): Map<number, M> {
  const found = new Map<number, M>();
  const registeredMatcher = new ProtectedMatcher(spec.registered, spec.policy);
  if (!registeredMatcher.empty) {
    candidates.forEach((c, i) => {
      const m = spec.match(registeredMatcher, c);
      if (m) found.set(i, m);
    });
  }

  const protectedWindows = new Set(spec.crossWindow?.protectedWindows ?? []);
  if (protectedWindows.size === 0) return found;
  const windowTexts: ReferenceText[] = [];
  const train: number[] = [];
  candidates.forEach((c, i) => {
    if (found.has(i) || c.window === null) return;
    if (c.window === TRAIN_WINDOW) train.push(i);
    else if (protectedWindows.has(c.window))
      windowTexts.push(...spec.windowTexts(c, `${AUTOMATIC_SET_PREFIX}${c.window}`));
  });
  if (windowTexts.length === 0 || train.length === 0) return found;
  // The same set order as registered ones: by set name, then id.
  windowTexts.sort((a, b) => (a.set < b.set ? -1 : a.set > b.set ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const windowMatcher = new ProtectedMatcher(windowTexts, spec.crossWindow!.policy);
  for (const i of train) {
    const m = spec.match(windowMatcher, candidates[i]);
    if (m) found.set(i, m);
  }
  return found;
}
