import { describe, expect, it } from '@jest/globals';
import { workflowInputsFromBody } from '../../../../src/api/workflow-calls/workflow-body.js';
import { loadWorkflow, type WorkflowDefinition } from '../../../../src/workflow/index.js';
import { testCatalog } from '../../workflow/support/test-catalog.js';
import { workflow } from '../../workflow/support/workflow-builder.js';

/** A workflow whose only input is called `input`, of type `type`: $request.<input> ──▶ up (text/upper) ──▶ value. */
function singleInput(input: string, type = 'any'): WorkflowDefinition {
  const builder = workflow('single').input(input, { type }).handler('up', 'text/upper', { text: `$request.${input}` }).output('value', 'up.text');
  return loadWorkflow(builder.text(), { file: 'single.yaml', catalog: testCatalog() }).plan.workflow;
}

describe('the inputs of a workflow with a single input, from a body', () => {
  it('takes an object keyed by the input as the inputs', () => {
    expect(workflowInputsFromBody({ text: 'hi' }, singleInput('text'))).toEqual({ text: 'hi' });
  });

  it('takes any other body whole as the input', () => {
    expect(workflowInputsFromBody({ other: 'hi' }, singleInput('text'))).toEqual({ text: { other: 'hi' } });
  });

  it.each(['constructor', 'toString'])('takes a body without the key `%s` whole as the input of that name, not as the inputs', (name) => {
    const inputs = workflowInputsFromBody({ a: 1 }, singleInput(name));
    expect(Object.entries(inputs)).toEqual([[name, { a: 1 }]]);
  });

  it.each(['any', 'object'])('takes an object with keys besides the input whole as the input when it may be a mapping (%s)', (type) => {
    expect(workflowInputsFromBody({ text: 'hi', x: 1 }, singleInput('text', type))).toEqual({ text: { text: 'hi', x: 1 } });
  });

  it.each(['string', 'list'])('takes an object body as the inputs by name when the input cannot be a mapping (%s), extra keys and all', (type) => {
    expect(workflowInputsFromBody({ text: 'hi', x: 1 }, singleInput('text', type))).toEqual({ text: 'hi', x: 1 });
  });

  it('takes a JSON array body whole as an input that cannot be a mapping', () => {
    expect(workflowInputsFromBody(['hi'], singleInput('text', 'list'))).toEqual({ text: ['hi'] });
  });
});
