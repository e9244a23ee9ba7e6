import { describe, expect, it } from '@jest/globals';
import { checkModelNameFree, checkWorkflowNameFree } from '../../../src/serving/name-claims.js';

const holds = (...names: string[]) => (name: string): boolean => names.includes(name);

describe('checkModelNameFree', () => {
  it('refuses a model name a workflow holds with SLUICE_MODEL_ALREADY_REGISTERED naming the workflow and the fix', () => {
    expect(() => {
      checkModelNameFree('ocr', holds('ocr'));
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_ALREADY_REGISTERED',
        message:
          'cannot register model `ocr`: workflow `ocr` holds that name, and a model and a workflow cannot share one (POST /v2/models/ocr/infer and gRPC inference would reach only the model); register the model under another model_name, or unregister the workflow first (DELETE /workflows/ocr)',
        details: { name: 'ocr', heldBy: 'workflow' },
      }),
    );
  });

  it('accepts a model name no workflow holds', () => {
    expect(() => {
      checkModelNameFree('iris', holds('ocr'));
    }).not.toThrow();
  });
});

describe('checkWorkflowNameFree', () => {
  it('refuses a workflow name a model holds with SLUICE_MODEL_ALREADY_REGISTERED naming the model and the fix', () => {
    expect(() => {
      checkWorkflowNameFree('iris', holds('iris'));
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_ALREADY_REGISTERED',
        message:
          'cannot register workflow `iris`: model `iris` holds that name, and a workflow and a model cannot share one (POST /v2/models/iris/infer and gRPC inference would reach only the model); register the workflow under another workflow_name, or unregister the model first (DELETE /models/iris)',
        details: { name: 'iris', heldBy: 'model' },
      }),
    );
  });

  it('accepts a workflow name no model holds', () => {
    expect(() => {
      checkWorkflowNameFree('ocr', holds('iris'));
    }).not.toThrow();
  });
});
