// Host or config text as Markdown source that renders as exactly that text. CommonMark lets a backslash
// escape every ASCII punctuation character; escaping all of them leaves no syntax, and it also splits
// `https://`, `www.` and `a@b.c` apart, so GFM's autolinker finds nothing. Hidden characters show as
// visible escapes. Used by the dataset card (mdText) and the inspector's hovers (inertMarkdown).
import { visibleEscapes } from './visibleEscapes';

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** One line of text (no line breaks in it) as inert Markdown. */
export function escapeMarkdownLine(line: string): string {
  return visibleEscapes(line).replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
}
