#!/usr/bin/env node
// The `angelia` command: runs the built CLI (built by `npm ci` through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out', 'main', 'cli.js');
if (!existsSync(built)) {
  process.stderr.write(`angelia: ${built} is missing; run "npm run build" in ${root} first.\n`);
  process.exit(2);
}
await import(pathToFileURL(built).href);
