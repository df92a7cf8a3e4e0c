// @mcpkit/tasks/client: the tasks extension for a client, `client.extend(tasks())` (it returns the `TasksClient`,
// whose types are on the root entry).

export { tasks } from './tasks-client';
