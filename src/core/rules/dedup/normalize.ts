// Whitespace normalisation shared by all duplicate rules. It changes only whitespace, so the tokens of
// a normalised text are exactly the whitespace-separated runs of the raw text; tokenScan.ts relies on that.

/**
 * CRLF becomes LF; on each line every run of whitespace (tabs, spaces, a lone CR, Unicode spaces)
 * becomes one space, and trailing whitespace is dropped. Line breaks themselves are kept, so two
 * hunks that differ only in where their lines break are not equal.
 */
export function normalizeHunkText(text: string): string {
  // Only runs that are not already a single space are rewritten: most gaps in code are one space.
  return text
    .replace(/\r\n/g, '\n')
    .replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ')
    .replace(/ (?=\n|$)/g, '');
}

/** True for exactly the code units JavaScript's `\s` matches. */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
