#!/usr/bin/env node
import { run } from './main';

// The process ends with the command's exit code even if a transport left a handle open (a child's pipe, a socket).
// No top-level await: the bin is also built as CommonJS.
void run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 200).unref();
});
