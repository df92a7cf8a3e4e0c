// @mcpkit/tasks/server: the tasks extension for a server, `mcp.extend(tasks({ store }))` (it returns the
// `TasksServer`, whose types are on the root entry).

export { tasks } from './task-server';
