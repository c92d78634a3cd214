// Host text (paths, file suffixes, comments, dates) can carry characters that act instead of showing:
// ESC and the C1 controls start terminal sequences (CSI recolours or moves the cursor, OSC retitles
// the window or hides a hyperlink), and bidi controls make a line display in another order than it
// reads. Wherever host text is shown, they become visible escapes instead: `\x1b`, `\u202e`.

/** C0 controls, DEL, C1 controls, bidi marks, embeddings, overrides and isolates, line and paragraph separators. */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/** The text with each hidden character as `\xNN` (below U+0100) or `\uNNNN`; everything else as it is. */
export function visibleEscapes(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  });
}

/**
 * JSON text from JSON.stringify with the hidden characters it leaves raw (DEL, C1, bidi, U+2028/9) as
 * `\uNNNN`: the same JSON value, safe to print. Those stand only inside strings; the C0 controls left
 * are its own line breaks, since it escapes every one inside a string.
 */
export function visibleEscapesInJson(json: string): string {
  return json.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? c : `\\u${hex(code, 4)}`;
  });
}
