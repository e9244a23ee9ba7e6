import { describe, expect, it } from '@jest/globals';
import { formatWorkflowProblem } from '../../../../src/workflow/index.js';
import { workflowInvalid } from '../../../../src/workflow/problems/workflow-invalid-error.js';

const problem = {
  severity: 'error' as const,
  file: 'ocr.yaml',
  line: 9,
  column: 40,
  path: 'nodes.crop.inputs.probs',
  message: 'refers to unknown node `detct`',
  hint: 'did you mean `detect`?',
};

describe('workflow problems', () => {
  it('print as file:line:col: severity: path: message; hint', () => {
    expect(formatWorkflowProblem(problem)).toBe('ocr.yaml:9:40: error: nodes.crop.inputs.probs: refers to unknown node `detct`; did you mean `detect`?');
  });

  it('make one SLUICE_WORKFLOW_INVALID error that counts and lists them', () => {
    const error = workflowInvalid('ocr.yaml', [problem, { ...problem, line: 10 }]);
    expect(error.code).toBe('SLUICE_WORKFLOW_INVALID');
    expect(error.message).toBe(
      [
        'workflow ocr.yaml is invalid (2 problems):',
        'ocr.yaml:9:40: error: nodes.crop.inputs.probs: refers to unknown node `detct`; did you mean `detect`?',
        'ocr.yaml:10:40: error: nodes.crop.inputs.probs: refers to unknown node `detct`; did you mean `detect`?',
      ].join('\n'),
    );
  });
});
