#!/usr/bin/env node
// prepack: copies the sample apps that `mcpkit init` uses as templates into templates/, so the published package
// carries them (in the repository, init reads them from apps/). node_modules and the apps' own tests stay behind.
import { cpSync, rmSync } from 'node:fs';
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
}
