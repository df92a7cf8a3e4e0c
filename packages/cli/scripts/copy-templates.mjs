#!/usr/bin/env node
// prepack: copies the sample apps that `mcpkit init` uses as templates into templates/, so the published package
// carries them (in the repository, init reads them from apps/). node_modules and the apps' own tests stay behind, and
// so does an app's `exports` (the workspace's own wiring: init writes a new package.json, and a nested `exports` in a
// published package is a publint error).
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const apps = ['quickstart', 'http-express', 'http-oauth', 'tasks-demo'];
rmSync(join(root, 'templates'), { recursive: true, force: true });
for (const app of apps) {
  cpSync(join(root, '..', '..', 'apps', app), join(root, 'templates', app), {
    recursive: true,
    filter: (source) =>
      !/[\\/](node_modules|test|dist)([\\/]|$)/.test(source.slice(join(root, '..', '..', 'apps', app).length)),
  });
  const manifest = join(root, 'templates', app, 'package.json');
  const { exports: _workspaceOnly, ...rest } = JSON.parse(readFileSync(manifest, 'utf8'));
  writeFileSync(manifest, `${JSON.stringify(rest, null, 2)}\n`);
}
