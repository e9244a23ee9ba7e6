import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-files/package-root.js';

/** Sluice's version, from its package.json. */
export const SLUICE_VERSION: string = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
