import { describe, expect, it } from '@jest/globals';
import { checkRequestedWorkflowOutputs } from '../../../../src/api/common/workflow-oip.js';
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
