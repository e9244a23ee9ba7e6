import { closedObject, listOf, schemaRef, type JsonSchema } from './json-schema.js';
import { sluiceSchemaPart } from './sluice-schema-part.js';

const NODE_STATUSES = ['ok', 'fallback', 'skipped', 'failed', 'cancelled', 'not-run'];
const MILLISECONDS = { description: 'Milliseconds from the start of the run.', type: 'number', minimum: 0 };

/** The workflow bodies: runs (`/wfpredict`), the workflow list and descriptions. */
export function workflowSchemas(): Record<string, JsonSchema> {
  return {
    WorkflowName: sluiceSchemaPart('workflow.schema.json', '/properties/metadata/properties/name'),
    WorkflowVersion: sluiceSchemaPart('workflow.schema.json', '/properties/metadata/properties/version'),
    WorkflowItemName: sluiceSchemaPart('workflow.schema.json', '/definitions/name'),
    WorkflowInput: sluiceSchemaPart('workflow.schema.json', '/definitions/input'),
    WorkflowRunRequest: {
      description:
        'A JSON object with one entry per input of the workflow (GET /workflows/{workflow} on the management port lists them). A workflow with one input also takes the whole body as that input: JSON data, or bytes such as an image.',
    },
    WorkflowRunAnswer: {
      description: 'A workflow with one output answers that output’s value; several answer an object keyed by output name. With ?debug=true: {outputs, debug}.',
      anyOf: [schemaRef('WorkflowDebugAnswer'), { description: 'The outputs.' }],
    },
    WorkflowDebugAnswer: closedObject('A run’s outputs by name, and what happened to each node.', {
      outputs: { description: 'The outputs by name; an output whose every source was skipped is absent.', type: 'object' },
      debug: schemaRef('WorkflowDebug'),
    }),
    WorkflowDebug: closedObject('What happened in a run.', {
      workflow: schemaRef('WorkflowName'),
      totalMs: { type: 'number', minimum: 0 },
      nodes: { type: 'object', additionalProperties: schemaRef('NodeTrace') },
      skipped: listOf({ type: 'string' }, 'The skipped nodes, in the order they were skipped.'),
    }),
    NodeTrace: closedObject(
      'How one node ended. not-run: the run ended before it could start; cancelled: while it ran.',
      {
        status: { type: 'string', enum: NODE_STATUSES },
        startMs: MILLISECONDS,
        durationMs: { type: 'number', minimum: 0 },
        attempts: { description: 'Attempts made, retries included, summed over the calls of a forEach.', type: 'integer', minimum: 0 },
        calls: { description: 'Calls made by a forEach node.', type: 'integer', minimum: 0 },
        reason: { description: 'Why it was skipped, or the error that failed it.', type: 'string' },
        workflow: { ...schemaRef('WorkflowDebug'), description: 'The trace of the sub-workflow a workflow node ran (its last attempt).' },
      },
      ['status', 'attempts'],
    ),
    WorkflowList: closedObject(
      'A page of the registered workflows, in registration order.',
      {
        workflows: listOf(schemaRef('WorkflowListEntry')),
        nextPageToken: { description: 'Give it as next_page_token for the next page; absent on the last one.', type: 'string', pattern: '^[0-9]+$' },
      },
      ['workflows'],
    ),
    WorkflowListEntry: closedObject('A registered workflow.', {
      workflowName: schemaRef('WorkflowName'),
      workflowUrl: { type: 'string' },
      workflowVersion: schemaRef('WorkflowVersion'),
    }),
    WorkflowDescriptions: { description: 'The workflow described (a one-element list, as TorchServe answers).', type: 'array', minItems: 1, maxItems: 1, items: schemaRef('WorkflowDescription') },
    WorkflowDescription: closedObject(
      'A workflow: its inputs and outputs, its nodes with the models and versions they use, and whether all of them are ready.',
      {
        workflowName: schemaRef('WorkflowName'),
        workflowVersion: schemaRef('WorkflowVersion'),
        workflowUrl: { type: 'string' },
        description: { type: 'string' },
        registeredAt: { type: 'string', format: 'date-time' },
        responseTimeoutMs: { description: 'The longest one run may take: the file’s responseTimeoutMs, else the server’s.', type: 'integer', minimum: 1 },
        ready: { type: 'boolean' },
        inputs: {
          description: 'The request inputs, by name.',
          type: 'object',
          propertyNames: schemaRef('WorkflowItemName'),
          additionalProperties: { allOf: [schemaRef('WorkflowInput'), { required: ['type', 'optional'] }] },
        },
        outputs: listOf(schemaRef('WorkflowItemName'), 'The output names.'),
        nodes: listOf(schemaRef('WorkflowNode')),
        stages: listOf(listOf({ type: 'string' }), 'The node ids of each stage, in the order the stages run.'),
        warnings: listOf({ type: 'string' }, 'Problems worth knowing that did not stop the workflow from loading.'),
      },
      ['workflowName', 'workflowVersion', 'workflowUrl', 'registeredAt', 'responseTimeoutMs', 'ready', 'inputs', 'outputs', 'nodes', 'stages', 'warnings'],
    ),
    WorkflowNode: closedObject(
      'A node: what it runs, in which stage, after which nodes, and whether what it runs is registered and ready.',
      {
        id: { type: 'string' },
        kind: { type: 'string', enum: ['model', 'handler', 'workflow'] },
        target: { description: 'The model, handler or workflow it runs.', type: 'string' },
        version: { description: 'The model version it runs, when known.', type: 'string' },
        stage: { type: 'integer', minimum: 0 },
        dependsOn: listOf({ type: 'string' }),
        ready: { type: 'boolean' },
      },
      ['id', 'kind', 'target', 'stage', 'dependsOn', 'ready'],
    ),
  };
}
