// ESLint rule `local/layer-order`: a module under src/core imports only from its own layer and the
// layers below it (scripts/lint/layers.mjs, docs/architecture.md), so the core reads bottom-up.
import path from 'node:path';
import { LAYERS } from './layers.mjs';

const ORDER = LAYERS.map((l) => l.name);

/** The layer of a path under src/core, '' for src/core's own top, undefined outside src/core. */
function layerOf(file, cwd) {
  const rel = path.relative(path.join(cwd, 'src', 'core'), file).split(path.sep);
  if (rel[0] === '..' || path.isAbsolute(rel.join('/'))) return undefined;
  return rel.length > 1 ? rel[0] : '';
}

export const layerOrder = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid a module under src/core from importing a module in a layer above its own' },
    schema: [],
    messages: {
      upward:
        '{{from}} imports {{to}}, a layer above it. src/core/{{from}} may import only from {{allowed}} (docs/architecture.md); move what both need down, or pass it in.',
      unplaced: '{{file}} is in no layer: src/core holds only the layers {{layers}} (docs/architecture.md).',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const cwd = context.cwd ?? process.cwd();
    const from = layerOf(file, cwd);
    if (from === undefined) return {};
    const fromRank = ORDER.indexOf(from);
    if (fromRank < 0) {
      return {
        Program: (node) =>
          context.report({
            node,
            messageId: 'unplaced',
            data: { file: path.relative(cwd, file), layers: ORDER.join(', ') },
          }),
      };
    }
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = layerOf(path.resolve(path.dirname(file), spec), cwd);
      if (to === undefined || ORDER.indexOf(to) <= fromRank) return;
      const allowed = ORDER.slice(0, fromRank + 1).join(', ');
      context.report({ node, messageId: 'upward', data: { from, to, allowed } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
