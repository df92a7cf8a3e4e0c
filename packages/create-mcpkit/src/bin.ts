#!/usr/bin/env node
import { createProject } from './index';

// No top-level await: the bin is also built as CommonJS.
void createProject(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
