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

  it('list the first 20 of many problems and say how many more there are', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...problem, line: i + 1 }));
    expect(workflowInvalid('ocr.yaml', many).message).toBe(
      [
        'workflow ocr.yaml is invalid (25 problems):',
        ...Array.from({ length: 20 }, (_, i) => `ocr.yaml:${i + 1}:40: error: nodes.crop.inputs.probs: refers to unknown node \`detct\`; did you mean \`detect\`?`),
        '… and 5 more',
      ].join('\n'),
    );
  });

  it('carry only the problems and warnings listed in the details', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...problem, line: i + 1 }));
    const warnings = many.map((p) => ({ ...p, severity: 'warning' as const }));
    expect(workflowInvalid('ocr.yaml', many, warnings).details).toEqual({ source: 'ocr.yaml', problems: many.slice(0, 20), warnings: warnings.slice(0, 20) });
  });
});
