// "target_in_comment" (reported, never filtered): the reviewer typed the fix in prose. An example's
// target is its after side without the context lines it shares with the before side; it counts when,
// whitespace-normalised per line and at least `minChars` long (rules.targetInCommentMinChars, default
// MIN_TARGET_CHARS), it appears verbatim in one of its comments normalised the same way. The
// inspector's flag detector reuses these functions.

export const MIN_TARGET_CHARS = 20;

/** Per line: runs of whitespace become one space, ends trimmed; blank lines dropped; lines joined by "\n". */
export function normaliseLines(text: string): string {
  return text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The after side less the leading and trailing lines it shares with the before side (the context),
 * i.e. the lines the author wrote in answer. Byte-exact lines, joined by "\n".
 */
export function targetOf(beforeText: string, afterText: string): string {
  const before = splitLines(beforeText);
  const after = splitLines(afterText);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return after.slice(head, after.length - tail).join('\n');
}

export interface TargetMatch {
  /** Index into the comments given. */
  comment: number;
  /** The normalised target that was found. */
  target: string;
}

/** The example's target, whitespace-normalised per line (any length). */
export function normalisedTarget(beforeText: string, afterText: string): string {
  return normaliseLines(targetOf(beforeText, afterText));
}

/** The normalised target and its longest word, or null when the target is too short to count. */
function targetProbe(target: string, minChars = MIN_TARGET_CHARS): { target: string; word: string } | null {
  if (target.length < minChars) return null;
  // Normalising only changes whitespace, so the target's longest word must stand verbatim in any
  // comment that holds it: a cheap test that spares normalising most comments.
  const word = target.split(/\s+/).reduce((a, b) => (b.length > a.length ? b : a), '');
  return { target, word };
}

const holds = (comment: string, probe: { target: string; word: string }) =>
  comment.includes(probe.word) && normaliseLines(comment).includes(probe.target);

/** The first comment holding the example's normalised target (≥ minChars), or null. */
export function findTargetInComments(
  beforeText: string,
  afterText: string,
  comments: readonly string[],
  minChars = MIN_TARGET_CHARS,
): TargetMatch | null {
  const probe = targetProbe(normalisedTarget(beforeText, afterText), minChars);
  if (probe === null) return null;
  const index = comments.findIndex((c) => holds(c, probe));
  return index < 0 ? null : { comment: index, target: probe.target };
}

/**
 * Indices of every comment holding the example's normalised target (≥ minChars); `target`
 * when the caller has normalised it already.
 */
export function commentsHoldingTarget(
  beforeText: string,
  afterText: string,
  comments: readonly string[],
  target = normalisedTarget(beforeText, afterText),
  minChars = MIN_TARGET_CHARS,
): number[] {
  const probe = targetProbe(target, minChars);
  const found: number[] = [];
  if (probe !== null) comments.forEach((c, i) => holds(c, probe) && found.push(i));
  return found;
}
