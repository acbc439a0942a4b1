#!/usr/bin/env node
// The `angelia` command: runs the built CLI (built by `npm ci` through the `prepare` script).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'cli.js');
if (!existsSync(built)) {
  process.stderr.write(`angelia: ${built} is missing; run "npm run build" in ${root} first.\n`);
  process.exit(2);
}
// Node 22.1+ keeps V8's compiled code of the CLI between runs (faster start-up); older Node has no such cache.
module.enableCompileCache?.();
await import(pathToFileURL(built).href);
