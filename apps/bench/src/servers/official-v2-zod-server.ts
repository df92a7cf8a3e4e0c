// The bench server on the official v2 SDK over stdio with zod inputs (see official-v2-tools.ts), as its README writes
// them.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { installCpuReport } from './cpu-report';
import { createOfficialV2ZodServer } from './official-v2-tools';

installCpuReport();
serveStdio(createOfficialV2ZodServer);
