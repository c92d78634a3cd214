// A kept example's text digest (decisions.text_sha256): `diff` compares it between builds to find kept
// examples whose text changed, also after the older build's example rows were pruned.
import { createHash } from 'node:crypto';

const utf8 = new TextEncoder();

/** Base64 SHA-256 over both sides' UTF-8 bytes, each length-prefixed so the boundary is unambiguous. */
export function textDigest(before: Uint8Array | string, after: Uint8Array | string): string {
  const b = typeof before === 'string' ? utf8.encode(before) : before;
  const a = typeof after === 'string' ? utf8.encode(after) : after;
  return createHash('sha256').update(`${b.length}:`).update(b).update(`\t${a.length}:`).update(a).digest('base64');
}
