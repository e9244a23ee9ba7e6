#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/src/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('sluice: not built yet; run `npm run build` (npm ci does it for you)\n');
  process.exit(1);
}
await import(main);
