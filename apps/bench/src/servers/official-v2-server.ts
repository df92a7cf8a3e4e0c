// The bench server on the official v2 SDK (@modelcontextprotocol/server 2.x): `echo` and `big`, their inputs plain JSON
// Schemas through the SDK's own `fromJsonSchema` (validated by the SDK's default JSON Schema validator). `serveStdio`
// is the SDK's stdio entry point (both eras), as its README shows. The SDK stays external to the bundle: plain node
// loads it from node_modules.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { installCpuReport } from './cpu-report';
import { createOfficialV2Server } from './official-v2-tools';

installCpuReport();
serveStdio(createOfficialV2Server);
