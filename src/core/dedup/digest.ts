// SHA-256 digests of normalised hunks (exact duplicates and boilerplate), hashed from a reused byte
// buffer: for ASCII text the normalised UTF-8 bytes are written directly, without building strings.
import { createHash } from 'node:crypto';
import { normalizeHunkText } from './normalize';

export interface HunkDigests {
  /** SHA-256 of normalised(before). */
  before: string;
  /** SHA-256 of normalised(before) + "\0" + normalised(after). */
  whole: string;
}

export class HunkDigester {
  private buffer = Buffer.alloc(1 << 16);

  digest(before: string, after: string): HunkDigests {
    const hash = createHash('sha256').update(this.normalised(before));
    const beforeDigest = hash.copy().digest('base64');
    const whole = hash.update('\0').update(this.normalised(after)).digest('base64');
    return { before: beforeDigest, whole };
  }

  /** UTF-8 of normalizeHunkText(text); a view into the reused buffer, valid until the next call. */
  private normalised(text: string): Uint8Array {
    if (this.buffer.length < text.length) this.buffer = Buffer.alloc(text.length * 2);
    const n = normaliseAscii(text, this.buffer);
    return n >= 0 ? this.buffer.subarray(0, n) : Buffer.from(normalizeHunkText(text), 'utf8');
  }
}

/**
 * Writes the normalised form of `text` (see normalizeHunkText) into `out` and returns its length, or -1
 * as soon as a code unit outside ASCII appears (the caller then takes the string path).
 */
function normaliseAscii(text: string, out: Uint8Array): number {
  let n = 0;
  let pendingSpace = false;
  for (let i = 0, len = text.length; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) {
      if (pendingSpace) out[n++] = 0x20;
      pendingSpace = false;
      out[n++] = c;
    } else if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) === 0x0a)) {
      if (c === 0x0d) i++; // CRLF counts as one line break
      pendingSpace = false; // trailing whitespace is dropped
      out[n++] = 0x0a;
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      pendingSpace = true;
    } else {
      return -1; // control characters and non-ASCII: exact handling by the string path
    }
  }
  return n;
}
