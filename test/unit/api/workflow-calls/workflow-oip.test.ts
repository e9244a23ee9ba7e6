import { describe, expect, it } from '@jest/globals';
import { checkRequestedWorkflowOutputs, workflowInputsOfOipTensors } from '../../../../src/api/workflow-calls/workflow-oip.js';
import { loadWorkflow, type WorkflowDefinition } from '../../../../src/workflow/index.js';
import { testCatalog } from '../../workflow/support/test-catalog.js';
import { workflow } from '../../workflow/support/workflow-builder.js';

/** `shout`: $request.text ──▶ up (text/upper) ──▶ text, and `original` straight from the request. */
function shout(): WorkflowDefinition {
  const builder = workflow('shout')
    .input('text', { type: 'string' })
    .handler('up', 'text/upper', { text: '$request.text' })
    .output('text', 'up.text')
    .output('original', '$request.text');
  return loadWorkflow(builder.text(), { file: 'shout.yaml', catalog: testCatalog() }).plan.workflow;
}

describe('the outputs an OIP request asks a workflow for', () => {
  it('accepts outputs the workflow declares, in any order', () => {
    expect(() => {
      checkRequestedWorkflowOutputs(shout(), ['original', 'text']);
    }).not.toThrow();
  });

  it('accepts a request that names no outputs', () => {
    expect(() => {
      checkRequestedWorkflowOutputs(shout(), undefined);
    }).not.toThrow();
  });

  it('refuses an output the workflow does not declare with SLUICE_TENSOR_UNKNOWN_OUTPUT naming its outputs', () => {
    expect(() => {
      checkRequestedWorkflowOutputs(shout(), ['text', 'label']);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNKNOWN_OUTPUT',
        message: 'workflow `shout` has no output `label`; its outputs are: text, original',
        details: { output: 'label', expected: ['text', 'original'] },
      }),
    );
  });
});

describe('the inputs of a workflow from OIP tensors', () => {
  /** `echo`: $request.__proto__ (a string) ──▶ up (text/upper) ──▶ text; `constructor` (optional, a number) ──▶ number. */
  function echo(): WorkflowDefinition {
    const text = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: echo }
inputs: { __proto__: { type: string }, constructor: { type: number, optional: true } }
nodes:
  up: { handler: text/upper, inputs: { text: $request.__proto__ } }
outputs: { text: up.text, number: $request.constructor }
`;
    return loadWorkflow(text, { file: 'echo.yaml', catalog: testCatalog() }).plan.workflow;
  }

  it('keeps inputs named like members every object inherits as inputs of their own, each read by its spec', () => {
    const inputs = workflowInputsOfOipTensors(echo(), [
      { name: '__proto__', datatype: 'BYTES', shape: [1], data: [new TextEncoder().encode('hi')] },
      { name: 'constructor', datatype: 'FP64', shape: [1], data: new Float64Array([2]) },
    ]);
    expect(Object.entries(inputs)).toEqual([
      ['__proto__', 'hi'],
      ['constructor', 2],
    ]);
    expect(Object.getPrototypeOf(inputs)).toBe(Object.prototype);
  });
});
