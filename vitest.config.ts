import { existsSync, readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One vitest run covers every workspace package and app. Each folder is a project named after it; tests live next to
// the source (src/**/*.test.ts) or in test/. Workspace packages resolve to their TypeScript source through the
// "@mcpkit/source" export condition, so tests never need a build first.
const folders = ['packages', 'apps', 'tools'].flatMap((group) =>
  existsSync(group)
    ? readdirSync(group, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(`${group}/${entry.name}/package.json`))
        .map((entry) => `${group}/${entry.name}`)
    : [],
);

// A project is named after its folder; an app named like a package (apps/gateway, packages/gateway) is `app-<name>`.
const packageFolders = new Set(folders.filter((root) => root.startsWith('packages/')).map((root) => root.slice(9)));
const projectName = (root: string) => {
  const [group, name] = root.split('/') as [string, string];
  return group === 'apps' && packageFolders.has(name) ? `app-${name}` : name;
};

const conditions = ['@mcpkit/source', 'module', 'node', 'import', 'default'];

// vitest hands these conditions to Node too (`--conditions module`), and with `module` Node picks the bundler-only ESM
// build of the OpenTelemetry packages (extension-less imports it cannot load). The projects that load the OpenTelemetry
// SDK get those packages pre-bundled by vite instead.
const OPENTELEMETRY = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
];
const USES_OPENTELEMETRY = new Set(['middleware', 'middleware-stack']);

// Projects whose test files share one process per worker (vitest's `isolate: false`): a fresh process per file costs
// about 0.4 s of CPU to import the sources again, which is most of the time of these mostly in-memory tests (eight of
// them: 57 s of CPU isolated, 29 s shared). A project stays isolated when a file measures the process (transport-http's
// RSS test) or its files are not proven to pass in any order together (every app and the rest).
const SHARED_PROCESS = new Set([
  'jsonrpc-core',
  'protocol',
  'server',
  'client',
  'auth',
  'middleware',
  'tasks',
  'skills',
  'apps',
  'testing',
  'transport-stdio',
  'transport-websocket',
  'readme-check',
  'paths',
]);

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@mcpkit/source'] } },
  test: {
    projects: [
      // Checks of the repository as a whole (packaging, runs-anywhere entries) live in test/ at the root.
      {
        extends: true as const,
        test: { name: 'repo', root: '.', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
      },
      ...folders.map((root) => ({
        extends: true as const,
        test: {
          name: projectName(root),
          root,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          ...(SHARED_PROCESS.has(projectName(root)) ? { isolate: false } : {}),
          ...(USES_OPENTELEMETRY.has(root.split('/')[1]!)
            ? { deps: { optimizer: { ssr: { enabled: true, include: OPENTELEMETRY } } } }
            : {}),
        },
      })),
    ],
  },
});
