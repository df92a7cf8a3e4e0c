#!/usr/bin/env node
// Finds import cycles between the source files of every package (packages/*/src, tests excluded), type-only imports
// included: a cycle, even of types, means two files are one module split in two, and it is what makes a bundler keep
// code alive that nothing uses. Prints each cycle (a strongly connected component of the import graph) and exits 1 if
// there is any. `test/import-cycles.test.ts` runs it, so a cycle cannot come back.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every non-test `.ts` file under `dir`. */
function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import … from './x'`, `import type … from`, `export … from`, `import './x'`, `import('./x')`: relative specifiers
// only (packages reach each other through their entries, which scripts/check-packages.mjs keeps acyclic).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** The import graph of every package's sources: file → files it imports. */
export function importGraph(root = ROOT) {
  const graph = new Map();
  const packagesDir = join(root, 'packages');
  for (const pkg of readdirSync(packagesDir)) {
    const src = join(packagesDir, pkg, 'src');
    if (!existsSync(src)) continue;
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
      const targets = new Set();
      for (const match of text.matchAll(SPECIFIER)) {
        const target = resolveImport(file, match[1]);
        if (target !== undefined) targets.add(target);
      }
      graph.set(file, targets);
    }
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function findCycles(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cycles = findCycles(importGraph());
  for (const cycle of cycles) console.error(`[cycles] ${cycle.map((file) => relative(ROOT, file)).join(' <-> ')}`);
  if (cycles.length > 0) {
    console.error(`[cycles] ${cycles.length} import cycle(s) among package sources (type-only imports count)`);
    process.exit(1);
  }
  console.log('[cycles] no import cycle among package sources');
}
