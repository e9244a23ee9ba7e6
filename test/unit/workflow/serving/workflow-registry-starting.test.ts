import { describe, expect, it } from '@jest/globals';
import { ModelRegistry } from '../../../../src/serving/model-registry.js';
import { WorkflowRegistry, type RegisteredWorkflow } from '../../../../src/workflow/serving/workflow-registry.js';

/** The registry only reads `name` and, for callers, the plan's nodes. */
function workflow(name: string): RegisteredWorkflow {
  return { name, plan: { nodes: {} } } as unknown as RegisteredWorkflow;
}

describe('WorkflowRegistry while start-up registers its workflows', () => {
  it('answers a name not registered yet with SLUICE_SERVER_STARTING and a retry delay', () => {
    const registry = new WorkflowRegistry();
    registry.setStartingUp(true);
    expect(() => registry.get('spec')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_SERVER_STARTING',
        message: 'workflow `spec` is not registered yet: the server is still loading its models and workflows; retry shortly, or on another replica',
        details: { workflow: 'spec', retryAfterSeconds: 1 },
      }),
    );
  });

  it('answers a registered workflow as ever', () => {
    const registry = new WorkflowRegistry();
    registry.setStartingUp(true);
    registry.put(workflow('spec'));
    expect(registry.get('spec').name).toBe('spec');
  });

  it('answers SLUICE_WORKFLOW_NOT_FOUND once start-up has ended', () => {
    const registry = new WorkflowRegistry();
    registry.setStartingUp(true);
    registry.setStartingUp(false);
    expect(registry.isStartingUp()).toBe(false);
    expect(() => registry.get('spec')).toThrow(expect.objectContaining({ code: 'SLUICE_WORKFLOW_NOT_FOUND' }));
  });

  it('find is not affected: start-up itself looks workflows up as they are', () => {
    const registry = new WorkflowRegistry();
    registry.setStartingUp(true);
    expect(registry.find('spec')).toBeUndefined();
  });
});

describe('ModelRegistry while start-up loads its models', () => {
  it('tells the client when to retry a model not registered yet', () => {
    const registry = new ModelRegistry();
    registry.setStartingUp(true);
    expect(registry.isStartingUp()).toBe(true);
    expect(() => registry.resolve('iris', undefined)).toThrow(expect.objectContaining({ code: 'SLUICE_SERVER_STARTING', details: { model: 'iris', retryAfterSeconds: 1 } }));
  });
});
