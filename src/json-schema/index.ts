export { createSchemaValidator, schemaProblems, type SchemaValidator } from './schema-validator.js';
export { formatKeyPath, formatSchemaError } from './schema-error-format.js';
export { schemaPattern } from './schema-pattern.js';
