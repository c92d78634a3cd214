import type { CommentUnit } from '../types';

/**
 * The side-A lines a comment covers. Gerrit's range has 1-based lines and 0-based characters, its end
 * exclusive (CommentRange in rest-api-changes.txt), so a range ending at character 0 of its end line
 * takes nothing of that line: selecting whole lines in Gerrit's UI gives such ranges.
 */
export function commentSpan(u: Pick<CommentUnit, 'line' | 'startLine' | 'endLine' | 'endCharacter'>): {
  first: number;
  last: number;
} {
  if (!(u.startLine && u.startLine > 0)) return { first: u.line as number, last: u.line as number };
  const first = u.startLine;
  let last = Math.max(u.endLine ?? first, first);
  if (u.endCharacter === 0 && last > first) last--;
  return { first, last };
}
