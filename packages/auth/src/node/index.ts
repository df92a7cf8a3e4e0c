// @mcpkit/auth/node: the Node-only helpers of MCP authorization. Opening the authorization URL without a shell, and a
// fetch that resolves host names and refuses private addresses (what a browser or a Worker cannot do).
export { openInBrowser } from './open-in-browser';
export { createResolvingFetch, type ResolvingFetchOptions } from './resolving-fetch';
