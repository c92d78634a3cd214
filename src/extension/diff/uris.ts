// URIs of our read-only virtual documents. An example's two documents are named like the PR
// extension's review documents: the path is what VS Code shows for them (tab tooltip, Problems,
// Comments panel), `/<org> #<change> <file path>`, and the query addresses the record:
// review-corpus:/openstack #930005 nova/compute/manager.py?example=12&side=before&view=whole&key=<digest>.
// The path comes from the host, so every segment is sanitised (docNames.ts); the real suffix stays,
// so the language follows it. The other documents keep /<kind>/<id>/<name> paths.
import * as vscode from 'vscode';
import { URI_SCHEME } from '../ids/views';
import { keyDigest, type ViewMode } from './exampleView';
import { readablePath } from './docNames';

export type Side = 'before' | 'after';

export type DocRef =
  | { kind: 'example'; id: number; side: Side; view: ViewMode; key: string }
  | { kind: 'comment'; id: number }
  | { kind: 'change'; id: number }
  | { kind: 'whole'; id: number }
  | { kind: 'compare'; from: number; to: number };

export function safeFileName(hostPath: string): string {
  const base = hostPath.split('/').pop() || 'file';
  const cleaned = base.replace(/[^\w.\-+]/g, '_').replace(/^\.+/, '_');
  return cleaned.slice(-120) || 'file';
}

export interface ExampleAddress {
  id: number;
  key: string;
  org: string;
  changeNumber: number;
  path: string;
}

export function exampleUri(e: ExampleAddress, side: Side, view: ViewMode): vscode.Uri {
  return vscode.Uri.from({
    scheme: URI_SCHEME,
    path: readablePath(e.org, e.changeNumber, e.path),
    query: `example=${e.id}&side=${side}&view=${view}&key=${keyDigest(e.key)}`,
  });
}

/** An example as one document, its before side then its after side (Open Kept Twin diffs two of these). */
export function wholeExampleUri(id: number, hostPath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/whole/${id}/${safeFileName(hostPath)}` });
}

export function commentUri(id: number): vscode.Uri {
  // .txt: the note is shown as data; a .md name made VS Code offer Markdown's preview and outline.
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/comment/${id}/removed-comment.txt` });
}

/** The note on a change a collection rule removed (changes.id), as plain text like the comment note. */
export function changeUri(id: number, changeNumber: number): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/change/${id}/change-${changeNumber}.txt` });
}

/** The Compare Builds report of two builds: read-only, so closing it never asks to save. */
export function compareUri(from: number, to: number): vscode.Uri {
  return vscode.Uri.from({ scheme: URI_SCHEME, path: `/compare/${from}/${to}/build-${from}-to-build-${to}.txt` });
}

export function parseDocUri(uri: vscode.Uri): DocRef | undefined {
  if (uri.scheme !== URI_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const id = query.get('example') ?? '';
  const side = query.get('side');
  const view = query.get('view');
  if (/^\d+$/.test(id) && (side === 'before' || side === 'after') && (view === 'whole' || view === 'hunk')) {
    return { kind: 'example', id: Number(id), side, view, key: query.get('key') ?? '' };
  }
  const parts = uri.path.split('/');
  if (parts[1] === 'comment' && /^\d+$/.test(parts[2])) return { kind: 'comment', id: Number(parts[2]) };
  if (parts[1] === 'change' && /^\d+$/.test(parts[2])) return { kind: 'change', id: Number(parts[2]) };
  if (parts[1] === 'whole' && /^\d+$/.test(parts[2])) return { kind: 'whole', id: Number(parts[2]) };
  if (parts[1] === 'compare' && /^\d+$/.test(parts[2]) && /^\d+$/.test(parts[3]))
    return { kind: 'compare', from: Number(parts[2]), to: Number(parts[3]) };
  return undefined;
}
