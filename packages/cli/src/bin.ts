#!/usr/bin/env node
import { run } from './main';

// The process ends with the command's exit code even if a transport left a handle open (a child's pipe, a socket).
const code = await run(process.argv.slice(2));
process.exitCode = code;
setTimeout(() => process.exit(code), 200).unref();
