// URIs of our read-only virtual documents: review-corpus:/example/<id>/<side>/<file name>.
// The file name keeps the real suffix so the language follows it; it comes from the host, so only a
// sanitised base name is used and the id alone addresses the record.
import * as vscode from 'vscode';
import { URI_SCHEME } from '../ids/views';

export type Side = 'before' | 'after';

export type DocRef =
  | { kind: 'example'; id: number; side: Side }
  | { kind: 'comment'; id: number }
  | { kind: 'compare'; from: number; to: number };

export function safeFileName(hostPath: string): string {
  const base = hostPath.split('/').pop() || 'file';
  const cleaned = base.replace(/[^\w.\-+]/g, '_').replace(/^\.+/, '_');
  return cleaned.slice(-120) || 'file';
}

export function exampleUri(id: number, side: Side, hostPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/example/${id}/${side}/${safeFileName(hostPath)}` });
}

export function commentUri(id: number): vscode.Uri {
  // .txt: the note is shown as data; a .md name made VS Code offer Markdown's preview and outline.
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/comment/${id}/removed-comment.txt` });
}

/** The Compare Builds report of two builds: read-only, so closing it never asks to save. */
export function compareUri(from: number, to: number): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/compare/${from}/${to}/build-${from}-to-build-${to}.txt` });
}

export function parseDocUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== URI_SCHEME) return undefined;
  const parts = uri.path.split('/');
  if (parts[1] === 'example' && /^\d+$/.test(parts[2]) && (parts[3] === 'before' || parts[3] === 'after')) {
    return { kind: 'example', id: Number(parts[2]), side: parts[3] };
  }
  if (parts[1] === 'comment' && /^\d+$/.test(parts[2])) return { kind: 'comment', id: Number(parts[2]) };
  if (parts[1] === 'compare' && /^\d+$/.test(parts[2]) && /^\d+$/.test(parts[3])) return { kind: 'compare', from: Number(parts[2]), to: Number(parts[3]) };
  return undefined;
}
