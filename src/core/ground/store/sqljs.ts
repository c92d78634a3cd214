// Loads sql.js once per process. Every bundle (dist/, out/test/, out/bench/) carries sql-wasm.wasm
// beside it; scripts/build.mjs copies it there.
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { existsSync } from 'node:fs';
import path from 'node:path';

let loading: Promise<SqlJsStatic> | undefined;

export function loadSqlJs(): Promise<SqlJsStatic> {
  const wasm = path.join(__dirname, 'sql-wasm.wasm');
  if (!existsSync(wasm))
    return Promise.reject(new Error(`sql-wasm.wasm is missing beside ${__dirname}; rebuild with npm run build`));
  loading ??= initSqlJs({ locateFile: () => wasm });
  return loading;
}
