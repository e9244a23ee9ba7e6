import { ERROR_CODES } from '../../../../sdk/errors/index.js';
import { closedObject, listOf, schemaRef, type JsonSchema } from './json-schema.js';

/** The TorchServe exception names error bodies carry, each once. */
const EXCEPTION_TYPES = [...new Set(Object.values(ERROR_CODES).map((info) => info.type))].sort();

const PROBLEMS = listOf(schemaRef('ErrorProblem'), 'Each problem of a refused file or request, when the error lists them.');
const PLUGIN = { description: 'The plugin at fault, for an error a plugin caused.', type: 'string' };
const CAUSE_CODE = { description: 'The code of the error behind this one (a failed workflow node’s cause), when it had one.', $ref: '#/components/schemas/SluiceErrorCode' };

/** The error bodies of both route families, and the codes they carry (`src/sdk/errors/`). */
export function errorSchemas(): Record<string, JsonSchema> {
  return {
    SluiceErrorCode: {
      description: 'A stable Sluice error code; docs/errors.md says what each means and how to fix it, and the status it is answered with.',
      type: 'string',
      enum: Object.keys(ERROR_CODES),
    },
    TorchServeError: closedObject(
      'The error body of the TorchServe routes (everything but /v1 and /v2): TorchServe’s fields, plus Sluice’s stable code.',
      {
        code: { description: 'The HTTP status.', type: 'integer', minimum: 400, maximum: 599 },
        type: { description: 'The TorchServe exception name.', type: 'string', enum: EXCEPTION_TYPES },
        message: { description: 'What went wrong and what to do about it.', type: 'string' },
        errorCode: schemaRef('SluiceErrorCode'),
        problems: PROBLEMS,
        plugin: PLUGIN,
        causeCode: CAUSE_CODE,
      },
      ['code', 'type', 'message', 'errorCode'],
    ),
    OipError: closedObject(
      'The error body of the KServe v1 and Open Inference Protocol routes (/v1, /v2): the protocol’s `error`, plus Sluice’s stable code.',
      {
        error: { description: 'What went wrong and what to do about it.', type: 'string' },
        errorCode: schemaRef('SluiceErrorCode'),
        problems: PROBLEMS,
        plugin: PLUGIN,
        causeCode: CAUSE_CODE,
      },
      ['error', 'errorCode'],
    ),
    ErrorProblem: {
      description: 'One problem: a sentence (a file breaking its JSON Schema), or a problem of a workflow file with its place.',
      anyOf: [{ type: 'string' }, schemaRef('WorkflowProblem')],
    },
    WorkflowProblem: closedObject('A problem found in a workflow file, placed in its source.', {
      severity: { type: 'string', enum: ['error', 'warning'] },
      file: { description: 'The file (or other source) the workflow was read from.', type: 'string' },
      line: { description: '1-based line of the offending key or value.', type: 'integer', minimum: 1 },
      column: { description: '1-based column.', type: 'integer', minimum: 1 },
      path: { description: 'The key path in the document (`nodes.detect.inputs.x`).', type: 'string' },
      message: { description: 'What is wrong.', type: 'string' },
      hint: { description: 'What to do about it.', type: 'string' },
    }),
  };
}
