// SHA-256 of normalised hunks: the definition of "identical" for exact duplicates and boilerplate.
import { createHash } from 'node:crypto';
import { normalizeHunkText } from './normalize';

/** SHA-256 (base64) of normalised(before), or of normalised(before) + "\0" + normalised(after). */
export function normalisedDigest(before: string, after?: string): string {
  const hash = createHash('sha256').update(normalizeHunkText(before));
  if (after !== undefined) hash.update('\0').update(normalizeHunkText(after));
  return hash.digest('base64');
}
