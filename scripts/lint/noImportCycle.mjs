// ESLint rule `local/no-import-cycle`: no module may reach itself through its imports, type-only
// imports included. import-x/no-cycle skips `import type` (a type cycle costs nothing at run time),
// but a type cycle still ties two modules together: each of the three cycles issue #19 named was one.
// Modules are resolved as the compiler resolves them (tsconfig.json's options, hence its paths too);
// packages and Node's built-ins end a path.
import { statSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { layerOrder } from './layerOrder.mjs';

/** tsconfig.json's compiler options, per directory searched from. */
const optionsByDir = new Map();
/** file → { mtimeMs, imports: [{ spec, file }] }; checked against the file's mtime, so an editor's long-lived linter sees edits. */
const importsByFile = new Map();

function compilerOptions(fromDir) {
  let options = optionsByDir.get(fromDir);
  if (options) return options;
  const configFile = ts.findConfigFile(fromDir, ts.sys.fileExists, 'tsconfig.json');
  if (configFile) {
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
    // allowJs: the .mjs scripts import each other too.
    options = {
      ...ts.parseJsonConfigFileContent(config ?? {}, ts.sys, path.dirname(configFile)).options,
      allowJs: true,
    };
  } else {
    options = { moduleResolution: ts.ModuleResolutionKind.Node10, allowJs: true };
  }
  optionsByDir.set(fromDir, options);
  return options;
}

/** The project file `spec` names from `fromFile`, or undefined (a package, a built-in, nothing). */
function resolve(spec, fromFile) {
  const { resolvedModule } = ts.resolveModuleName(spec, fromFile, compilerOptions(path.dirname(fromFile)), ts.sys);
  if (!resolvedModule || resolvedModule.isExternalLibraryImport) return undefined;
  if (!/\.[cm]?[jt]sx?$/.test(resolvedModule.resolvedFileName)) return undefined; // JSON imports nothing
  return path.resolve(resolvedModule.resolvedFileName);
}

function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return []; // deleted meanwhile
  }
  const cached = importsByFile.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
  const source = readFileSync(file, 'utf8');
  // Every static import and export-from (type-only too), import() and require().
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const imports = [];
  for (const { fileName } of importedFiles) {
    const target = resolve(fileName, file);
    if (target) imports.push({ spec: fileName, file: target });
  }
  importsByFile.set(file, { mtimeMs, imports });
  return imports;
}

/** A path of files from `start` back to `goal` (start first, goal last), or undefined. */
function pathBack(start, goal) {
  const seen = new Set([start]);
  const stack = [[start]];
  while (stack.length > 0) {
    const route = stack.pop();
    for (const next of importsOf(route[route.length - 1])) {
      if (next.file === goal) return [...route, goal];
      if (seen.has(next.file)) continue;
      seen.add(next.file);
      stack.push([...route, next.file]);
    }
  }
  return undefined;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'forbid a module from importing one that imports it back, through any path, type-only imports included',
    },
    schema: [],
    messages: { cycle: 'Import cycle: {{route}}. Move what both need into a module of its own, or pass it in.' },
  },
  create(context) {
    if (!path.isAbsolute(context.physicalFilename)) return {}; // '<text>': no place in the graph
    const file = context.physicalFilename;
    const cwd = context.cwd ?? process.cwd();
    const rel = (f) => path.relative(cwd, f).split(path.sep).join('/');
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      const target = resolve(spec, file);
      if (!target || target === file) return;
      const route = pathBack(target, file);
      if (route) context.report({ node, messageId: 'cycle', data: { route: [file, ...route].map(rel).join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node, node.moduleReference.expression.value),
      'CallExpression[callee.name="require"][arguments.length=1]': (node) =>
        node.arguments[0].type === 'Literal' && check(node, node.arguments[0].value),
    };
  },
};

export default {
  meta: { name: 'review-corpus-local' },
  rules: { 'no-import-cycle': noImportCycle, 'layer-order': layerOrder },
};
