// The path VS Code shows for an example document (tab tooltip, Problems, Comments panel): `/<org>
// #<change> <file path>`. The file path comes from the host and the org from the config: each segment
// is cut down to letters, digits and a few marks, so no control, bidi or separator character and no
// `..` segment reaches the workbench. Pure: unit-tested under Node.

/** One segment of a host path as shown: letters, digits and a few marks; anything else (controls, bidi, spaces, slashes) '_'. */
export function safePathSegment(segment: string): string {
  const cleaned = segment.replace(/[^\p{L}\p{N}\p{M}._\-+@=,~]/gu, '_').replace(/^\.+$/, '_');
  return cleaned.slice(-120) || '_';
}

/** The longest shown path: deeper paths keep their last segments, after '…'. */
const MAX_PATH = 240;

/** `/<org> #<change> <file path>`, each host segment sanitised. */
export function readablePath(org: string, changeNumber: number, hostPath: string): string {
  const segments = hostPath
    .split('/')
    .filter((p) => p !== '')
    .map(safePathSegment);
  if (segments.length === 0) segments.push('file');
  let file = segments.join('/');
  while (file.length > MAX_PATH && segments.length > 1) {
    segments.shift();
    file = `…/${segments.join('/')}`;
  }
  return `/${safePathSegment(org)} #${Math.trunc(changeNumber)} ${file.slice(-MAX_PATH)}`;
}
