/**
 * A JSON Schema as plain data, in the 2020-12 dialect that OpenAPI 3.1 schema objects use. Component
 * schemas are written as such constants and referenced with {@link schemaRef}, so each shape is written once.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Where the component schemas of a description live. */
export const COMPONENT_SCHEMAS = '#/components/schemas/';

/** A `$ref` to the component schema `name`. */
export function schemaRef(name: string): JsonSchema {
  return { $ref: `${COMPONENT_SCHEMAS}${name}` };
}

/** A list of `items`. */
export function listOf(items: JsonSchema, description?: string): JsonSchema {
  return { ...(description !== undefined ? { description } : {}), type: 'array', items };
}

/**
 * A closed object: every property listed, the `required` ones always there, nothing else. Answers are
 * documented closed, so a field the code adds without documenting it fails the conformance test.
 */
export function closedObject(description: string, properties: Readonly<Record<string, JsonSchema>>, required: readonly string[] = Object.keys(properties)): JsonSchema {
  return { ...(description !== '' ? { description } : {}), type: 'object', additionalProperties: false, required, properties };
}

/** The largest integer JSON numbers carry exactly (2^53 − 1). */
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
