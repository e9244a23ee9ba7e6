import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-files/package-root.js';

/** The parts of a JSON Schema node that Sluice reads to derive environment variables and docs. */
export interface ConfigSchemaNode {
  readonly type?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, ConfigSchemaNode>>;
  readonly additionalProperties?: boolean | ConfigSchemaNode;
  readonly items?: ConfigSchemaNode;
  readonly oneOf?: readonly ConfigSchemaNode[];
  readonly anyOf?: readonly ConfigSchemaNode[];
  readonly then?: ConfigSchemaNode;
  readonly else?: ConfigSchemaNode;
}

/** One key of the configuration schema: a section (an object of keys) or a value. */
export interface ConfigKeyInfo {
  /** Dotted, as in error messages: `inference.port`. */
  readonly key: string;
  /** The key's property names from the top: `['inference', 'port']`. */
  readonly path: readonly string[];
  readonly kind: 'section' | 'value';
  readonly description: string;
  /** The key's own schema node. */
  readonly schema: ConfigSchemaNode;
}

/** The file every configuration layer is validated against, under `schemas/`. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

let cachedSchema: ConfigSchemaNode | undefined;
let cachedKeys: readonly ConfigKeyInfo[] | undefined;

/** The parsed `schemas/config.schema.json`. */
export function configSchema(): ConfigSchemaNode {
  cachedSchema ??= JSON.parse(readFileSync(join(packageRoot(), 'schemas', CONFIG_SCHEMA_FILE), 'utf8')) as ConfigSchemaNode;
  return cachedSchema;
}

function collectKeys(node: ConfigSchemaNode, parent: readonly string[], into: ConfigKeyInfo[]): void {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = [...parent, name];
    const kind = child.properties === undefined ? 'value' : 'section';
    into.push({ key: path.join('.'), path, kind, description: child.description ?? '', schema: child });
    if (kind === 'section') collectKeys(child, path, into);
  }
}

/** Every key of the configuration schema, sections before their keys, in schema order. */
export function listConfigKeys(): readonly ConfigKeyInfo[] {
  if (cachedKeys === undefined) {
    const keys: ConfigKeyInfo[] = [];
    collectKeys(configSchema(), [], keys);
    cachedKeys = keys;
  }
  return cachedKeys;
}
