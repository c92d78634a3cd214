// The decontamination step of a build, after the duplicates: which examples overlap a protected
// reference. Two passes:
// 1. every example against the registered sets (protect): the whole corpus, every window;
// 2. examples of the window named "train" against every other window's examples that are still in
//    (automatic; set name "window:<name>"). A sealed window has no examples until it is unsealed, so it
//    protects nothing yet. A corpus without a "train" window has no automatic pass.
// Both use the same policy. Each pass builds its indexes once (matcher.ts).
import { ProtectedMatcher, type ExampleTexts, type OverlapMatch, type ReferenceText } from './matcher';
import type { MatchingPolicy } from './policy';

export const TRAIN_WINDOW = 'train';
export const AUTOMATIC_SET_PREFIX = 'window:';

export interface DecontamCandidate {
  key: string;
  window: string | null;
  texts: ExampleTexts;
}

/** Windows protected against train automatically: every window but train (none when no window is named train). */
export function automaticWindows(windowNames: readonly string[]): string[] {
  return windowNames.includes(TRAIN_WINDOW) ? windowNames.filter((w) => w !== TRAIN_WINDOW) : [];
}

/** candidate index → its overlap; candidates not in the map are kept. */
export function findProtectedOverlaps(candidates: readonly DecontamCandidate[], registered: readonly ReferenceText[], policy: MatchingPolicy,
  windowNames: readonly string[]): Map<number, OverlapMatch> {
  const found = new Map<number, OverlapMatch>();
  const registeredMatcher = new ProtectedMatcher(registered, policy);
  if (!registeredMatcher.empty) {
    candidates.forEach((c, i) => {
      const m = registeredMatcher.match(c.texts);
      if (m) found.set(i, m);
    });
  }

  const protectedWindows = new Set(automaticWindows(windowNames));
  if (protectedWindows.size === 0) return found;
  const windowTexts: ReferenceText[] = [];
  const train: number[] = [];
  candidates.forEach((c, i) => {
    if (found.has(i) || c.window === null) return;
    if (c.window === TRAIN_WINDOW) {
      train.push(i);
      return;
    }
    if (!protectedWindows.has(c.window)) return;
    const base = { set: `${AUTOMATIC_SET_PREFIX}${c.window}`, id: c.key };
    windowTexts.push({ ...base, field: 'before', text: c.texts.before }, { ...base, field: 'after', text: c.texts.after });
    for (const comment of c.texts.comments) windowTexts.push({ ...base, field: 'comment', text: comment.message });
  });
  if (windowTexts.length === 0 || train.length === 0) return found;
  // The same set order as registered ones: by set name, then id.
  windowTexts.sort((a, b) => (a.set < b.set ? -1 : a.set > b.set ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const windowMatcher = new ProtectedMatcher(windowTexts, policy);
  for (const i of train) {
    const m = windowMatcher.match(candidates[i].texts);
    if (m) found.set(i, m);
  }
  return found;
}
