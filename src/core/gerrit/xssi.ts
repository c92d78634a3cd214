// Gerrit prefixes every JSON response with `)]}'` on its own line so that a browser cannot run the
// body as a script (XSSI). The prefix has to go before JSON.parse.

const XSSI_PREFIX = ")]}'";

/** The body without Gerrit's XSSI prefix line; a body without the prefix is returned unchanged. */
export function stripXssi(body: string): string {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (!text.startsWith(XSSI_PREFIX)) return text;
  const rest = text.slice(XSSI_PREFIX.length);
  return rest.replace(/^\r?\n/, '');
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A Gerrit REST answer: every JSON answer Gerrit sends starts with the XSSI line (RestApiServlet), so
 * a 2xx body without it (a proxy's page, a captive portal) is not Gerrit's and is refused.
 */
export function parseGerritReply(body: string): ParsedJson {
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  if (!text.startsWith(XSSI_PREFIX))
    return {
      ok: false,
      message: /^\s*</.test(text) ? 'an HTML page, not Gerrit JSON' : 'no XSSI prefix: not a Gerrit JSON answer',
    };
  return parseGerritJson(text);
}

/**
 * Parses a Gerrit JSON body. Unknown fields are kept as they are (nothing is validated against a
 * schema here); a body that is not JSON, including one cut short, yields `ok: false`.
 */
export function parseGerritJson(body: string): ParsedJson {
  const text = stripXssi(body);
  if (text.trim() === '') return { ok: false, message: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    // JSON.parse messages quote a slice of the (untrusted) input, so they are not passed on.
    const cutShort = /end of JSON input|Unterminated/i.test((e as Error).message);
    return { ok: false, message: cutShort ? 'JSON ends early (truncated body)' : 'body is not valid JSON' };
  }
}
