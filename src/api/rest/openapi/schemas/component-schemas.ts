import { errorSchemas } from './error-schemas.js';
import type { JsonSchema } from './json-schema.js';
import { kserveV1Schemas } from './kserve-v1-schemas.js';
import { modelManagementSchemas } from './model-management-schemas.js';
import { oipSchemas } from './oip-schemas.js';
import { serverSchemas } from './server-schemas.js';
import { tensorSchemas } from './tensor-schemas.js';
import { torchServeSchemas } from './torchserve-schemas.js';
import { workflowSchemas } from './workflow-schemas.js';

let built: Readonly<Record<string, JsonSchema>> | undefined;

/**
 * Every component schema of the three ports' descriptions, by name, built once (parts of them are read from
 * `schemas/`). A name given twice is a mistake, refused here rather than one shape silently replacing another.
 */
export function componentSchemas(): Readonly<Record<string, JsonSchema>> {
  if (built !== undefined) return built;
  const all: Record<string, JsonSchema> = {};
  const groups = [errorSchemas(), tensorSchemas(), oipSchemas(), kserveV1Schemas(), torchServeSchemas(), modelManagementSchemas(), workflowSchemas(), serverSchemas()];
  for (const group of groups) {
    for (const [name, schema] of Object.entries(group)) {
      if (name in all) throw new Error(`the component schema ${name} is defined twice`);
      all[name] = schema;
    }
  }
  return (built = all);
}
