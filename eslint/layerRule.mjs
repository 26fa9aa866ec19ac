// The `layers/imports` rule: every import of a file is checked against the policy of the layer the
// file belongs to (eslint.config.mjs declares the policies). Specifiers are classified, not matched
// by pattern: a relative path is resolved against the importing file and judged by the folder of
// src/ it lands in, so a subfolder that happens to share a layer's name (src/vscode/mcp) is never
// mistaken for that layer. Whatever a policy does not list is refused.
import { builtinModules } from 'node:module';
import path from 'node:path';

const BUILTINS = new Set(builtinModules);

/**
 * What `specifier`, imported by `filename`, reaches:
 * { kind: 'editor' } | { kind: 'builtin' } | { kind: 'package', name } |
 * { kind: 'source', area, folder, inner } where area is 'src' or 'webview' or 'outside', folder the
 * top-level folder of src (null for a file directly in src/), inner the path below that folder.
 */
export function classifyImport(root, filename, specifier) {
  if (specifier === 'vscode') return { kind: 'editor' };
  if (specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]))
    return { kind: 'builtin' };
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
    const parts = specifier.split('/');
    return { kind: 'package', name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
  }
  return { kind: 'source', ...placeOf(root, path.resolve(path.dirname(filename), specifier)) };
}

/** Where a file of the repository lies: in a folder of src/, in webview/, or elsewhere. */
export function placeOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'src')
    return parts.length === 2
      ? { area: 'src', folder: null, inner: parts[1] }
      : { area: 'src', folder: parts[1], inner: parts.slice(2).join('/') };
  if (parts[0] === 'webview') return { area: 'webview', folder: null, inner: parts.slice(1).join('/') };
  return { area: 'outside', folder: null, inner: parts.join('/') };
}

/** Whether `inner` (a path below src/core) is one of the core parts a policy lists. */
function coreAllows(parts, inner) {
  if (parts === 'all') return true;
  return parts.some((part) => inner === part || inner.startsWith(`${part}/`));
}

/** The reason an import breaks `policy`, or null when the policy allows it. */
export function violation(policy, place, target) {
  const layer = policy.name;
  switch (target.kind) {
    case 'editor':
      return policy.editor ? null : `Only src/vscode imports the editor API ('vscode'); ${layer} may not.`;
    case 'builtin':
      return policy.builtins
        ? null
        : `${layer} may not import Node built-ins: it runs where Node does not (${policy.why}).`;
    case 'package': {
      if (!policy.packages.includes(target.name))
        return (
          `${layer} may not import the package '${target.name}'` +
          (policy.packages.length ? ` (only ${policy.packages.join(', ')}).` : '.') +
          ' Each layer lists its packages in eslint.config.mjs.'
        );
      const adapters = policy.packageAdapters?.[target.name];
      const file = place.folder === null ? place.inner : `src/${place.folder}/${place.inner}`;
      return adapters === undefined || adapters.includes(file)
        ? null
        : `In ${layer}, only ${adapters.join(', ')} imports '${target.name}'; import what you need from there.`;
    }
    case 'source': {
      if (target.area === 'outside') return `${layer} may not import ${target.inner}: it is outside src/ and webview/.`;
      if (target.area === 'webview')
        return place.area === 'webview' ? null : `${layer} may not import the webview (${target.inner}).`;
      if (place.area === 'src' && target.folder === place.folder) return null;
      if (target.folder === null)
        return `${layer} may not import ${target.inner}: a file directly in src/ is in no layer.`;
      if (target.folder === 'core' && policy.layers.includes('core')) {
        return coreAllows(policy.core, target.inner.replace(/\.ts$/, ''))
          ? null
          : `${layer} may use only these parts of src/core: ${policy.core.join(', ')} (not core/${target.inner}). ${policy.why}`;
      }
      return policy.layers.includes(target.folder)
        ? null
        : `${layer} may not import src/${target.folder} (it may import ${policy.layers.length ? policy.layers.map((name) => `src/${name}`).join(', ') : 'no other layer'}). ${policy.why}`;
    }
  }
  return `unknown import kind`;
}

/** The plugin, given the repository root; the rule's only option is the policy of the linted file's layer. */
export function layersPlugin(root) {
  return {
    rules: {
      imports: {
        meta: {
          type: 'problem',
          docs: { description: "Each file imports only what its layer's policy lists (eslint.config.mjs)." },
          schema: [{ type: 'object' }],
        },
        create(context) {
          const policy = context.options[0];
          const place = placeOf(root, context.filename);
          const check = (node, source) => {
            if (!source || source.type !== 'Literal' || typeof source.value !== 'string') {
              context.report({
                node,
                message: `${policy.name}: an import whose module is not a string literal cannot be checked by the layer rule.`,
              });
              return;
            }
            const reason = violation(policy, place, classifyImport(root, context.filename, source.value));
            if (reason) context.report({ node: source, message: reason });
          };
          return {
            Program(node) {
              if (policy.undeclared)
                context.report({
                  node,
                  loc: { line: 1, column: 0 },
                  message: `${policy.name} is not a declared layer: a file here may import nothing outside its folder until eslint.config.mjs declares what the layer may use (LAYERS).`,
                });
            },
            ImportDeclaration: (node) => check(node, node.source),
            ExportNamedDeclaration: (node) => node.source && check(node, node.source),
            ExportAllDeclaration: (node) => check(node, node.source),
            ImportExpression: (node) => check(node, node.source),
            TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
            TSExternalModuleReference: (node) => check(node, node.expression),
            CallExpression(node) {
              if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node, node.arguments[0]);
            },
          };
        },
      },
    },
  };
}
