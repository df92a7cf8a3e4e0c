// The bench server on the official v1 SDK (@modelcontextprotocol/sdk 1.x) over stdio: `echo` and `big`. The SDK stays
// external to the bundle: plain node loads it from node_modules.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { installCpuReport } from './cpu-report';
import { createOfficialV1Server } from './official-v1-tools';

installCpuReport();
await createOfficialV1Server().connect(new StdioServerTransport());
