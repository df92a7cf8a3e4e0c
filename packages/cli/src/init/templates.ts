/** A sample app that `mcpkit init` copies as the start of a project. */
export interface Template {
  /** The name given on the command line. */
  name: string;
  /** What it is, for the list and the prompt. */
  description: string;
  /** Its folder under apps/ in the mcpkit repository (and under templates/ in the published package). */
  app: string;
  /** What to copy from the app: files and folders, relative to it. Its own tests are the repository's, not copied. */
  copy: readonly string[];
  /** The scripts of the new project (the app's, minus the workspace-only flags), besides `test` and `typecheck`. */
  scripts: Record<string, string>;
}

/** The templates, in the order the prompt offers them. */
export const TEMPLATES: readonly Template[] = [
  {
    name: 'quickstart',
    description: 'a stdio tool server (tools, resources, prompts, progress, elicitation)',
    app: 'quickstart',
    copy: ['src/server.ts'],
    scripts: { start: 'tsx src/server.ts' },
  },
  {
    name: 'http-express',
    description: 'a Streamable HTTP server on express (sessions, CORS, health, graceful shutdown)',
    app: 'http-express',
    copy: ['src'],
    scripts: { start: 'tsx src/server.ts' },
  },
  {
    name: 'http-oauth',
    description: 'an OAuth-protected HTTP server, with a demo authorization server',
    app: 'http-oauth',
    copy: ['src'],
    scripts: { start: 'tsx src/main.ts' },
  },
  {
    name: 'tasks',
    description: 'long-running tools as tasks, kept in SQLite across restarts',
    app: 'tasks-demo',
    copy: ['src/server.ts'],
    scripts: { start: 'tsx src/server.ts --db tasks.db' },
  },
];
