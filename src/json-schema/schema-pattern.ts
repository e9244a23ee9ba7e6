import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-files/package-root.js';

/**
 * The `pattern` of the schema node at `path` (keys from the root) in `schemas/<file>`, for a rule checked
 * outside validation (a name given at registration) that must be exactly the rule files follow.
 */
export function schemaPattern(file: string, path: readonly string[]): RegExp {
  let node: unknown = JSON.parse(readFileSync(join(packageRoot(), 'schemas', file), 'utf8'));
  for (const key of path) node = (node as Readonly<Record<string, unknown>> | undefined)?.[key];
  const pattern = (node as { pattern?: unknown } | undefined)?.pattern;
  if (typeof pattern !== 'string') throw new Error(`schemas/${file} has no pattern at ${path.join('.')}`);
  return new RegExp(pattern);
}
