import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../../package-files/package-root.js';
import { COMPONENT_SCHEMAS, type JsonSchema } from './json-schema.js';

/** The files of `schemas/` whose parts the description reuses. */
export type SluiceSchemaFile = 'model.schema.json' | 'workflow.schema.json';

/**
 * The `definitions` of Sluice's schemas that a reused part may point at, and the component schema each is
 * in the description. A part pointing at any other definition is refused, so that nothing is left dangling.
 */
export const SHARED_DEFINITIONS: Readonly<Record<string, string>> = {
  'model.schema.json#/definitions/tensorSpec': 'TensorSpec',
  'workflow.schema.json#/definitions/input': 'WorkflowInput',
  'workflow.schema.json#/definitions/name': 'WorkflowItemName',
};

/**
 * Draft-07 keywords whose meaning changed in 2020-12 (`items` as a list, `dependencies`) or that only a
 * whole file has: a part holding one would mean something else in the description, so it is refused.
 */
const UNPORTABLE_KEYWORDS: ReadonlySet<string> = new Set(['dependencies', 'definitions', '$schema', '$id', 'additionalItems']);

const files = new Map<SluiceSchemaFile, unknown>();

function schemaFile(file: SluiceSchemaFile): unknown {
  let parsed = files.get(file);
  if (parsed === undefined) {
    parsed = JSON.parse(readFileSync(join(packageRoot(), 'schemas', file), 'utf8')) as unknown;
    files.set(file, parsed);
  }
  return parsed;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `node` with its `$ref`s pointed at the component schemas, checked to mean the same in 2020-12. */
function ported(node: unknown, file: SluiceSchemaFile, where: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => ported(item, file, `${where}/${i}`));
  if (!isRecord(node)) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNPORTABLE_KEYWORDS.has(key) || (key === 'items' && Array.isArray(value))) {
      throw new Error(`schemas/${file}${where}: the keyword \`${key}\` cannot be reused in the OpenAPI description as it is; describe the shape there instead`);
    }
    if (key === '$ref') {
      const component = SHARED_DEFINITIONS[`${file}${String(value)}`];
      if (component === undefined) throw new Error(`schemas/${file}${where}: $ref ${String(value)} is not among the shared definitions of the OpenAPI description`);
      copy[key] = `${COMPONENT_SCHEMAS}${component}`;
    } else {
      copy[key] = ported(value, file, `${where}/${key}`);
    }
  }
  return copy;
}

/**
 * The part of `schema` (the content of `schemas/<file>`) at the JSON pointer `pointer`
 * (`/definitions/tensorSpec`), as a schema of the OpenAPI description; `without` leaves out annotations
 * that do not hold where the part is reused (a manifest's `default`, say). Throws for a part that would
 * mean something else there.
 */
export function schemaPartOf(schema: unknown, file: SluiceSchemaFile, pointer: string, without: readonly string[] = []): JsonSchema {
  let node = schema;
  for (const key of pointer.split('/').slice(1)) node = isRecord(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  if (!isRecord(node)) throw new Error(`schemas/${file} has no schema at ${pointer}`);
  return Object.fromEntries(Object.entries(ported(node, file, pointer) as JsonSchema).filter(([key]) => !without.includes(key)));
}

/**
 * {@link schemaPartOf} `schemas/<file>`: Sluice's file formats stay the one source of the shapes an answer
 * or a parameter shares with them.
 */
export function sluiceSchemaPart(file: SluiceSchemaFile, pointer: string, without: readonly string[] = []): JsonSchema {
  return schemaPartOf(schemaFile(file), file, pointer, without);
}
