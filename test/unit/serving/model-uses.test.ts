import { describe, expect, it } from '@jest/globals';
import { checkModelNotInUse, type ModelRemoval, type ModelUse } from '../../../src/serving/model-uses.js';

const pinned = (workflow: string, version: string): ModelUse => ({ workflow, version });
const anyVersion = (workflow: string): ModelUse => ({ workflow, version: undefined });

/** Removing `removed` of `all` versions of model `iris`, asked for as `version`. */
function removal(version: string | undefined, removed: readonly string[], all: readonly string[]): ModelRemoval {
  return { name: 'iris', version, removed, remaining: all.filter((v) => !removed.includes(v)) };
}

function refusal(check: () => void): unknown {
  try {
    check();
  } catch (error) {
    return error;
  }
  return 'not refused';
}

describe('checkModelNotInUse', () => {
  it('refuses removing the version a workflow names, with SLUICE_MODEL_IN_USE naming the workflow and the fix', () => {
    expect(refusal(() => { checkModelNotInUse(removal('1.0', ['1.0'], ['1.0', '2.0']), [pinned('triage', '1.0')]); })).toMatchObject({
      code: 'SLUICE_MODEL_IN_USE',
      message: 'cannot unregister model `iris` version `1.0`: workflow `triage` uses it and would fail without it; unregister the workflow first (DELETE /workflows/triage), then the model',
      details: { model: 'iris', version: '1.0', workflows: ['triage'] },
    });
  });

  it('allows removing a version other than the one a workflow names', () => {
    expect(() => { checkModelNotInUse(removal('2.0', ['2.0'], ['1.0', '2.0']), [pinned('triage', '1.0')]); }).not.toThrow();
  });

  it('allows removing one of several versions of a model a workflow uses without naming a version', () => {
    expect(() => { checkModelNotInUse(removal('2.0', ['2.0'], ['1.0', '2.0']), [anyVersion('triage')]); }).not.toThrow();
  });

  it('refuses removing the last version of a model a workflow uses without naming a version', () => {
    expect(refusal(() => { checkModelNotInUse(removal('1.0', ['1.0'], ['1.0']), [anyVersion('triage')]); })).toMatchObject({
      code: 'SLUICE_MODEL_IN_USE',
      details: { model: 'iris', version: '1.0', workflows: ['triage'] },
    });
  });

  it('refuses removing every version, naming each workflow that uses one once, in name order', () => {
    const uses = [anyVersion('triage'), pinned('audit', '2.0'), pinned('triage', '1.0')];
    expect(refusal(() => { checkModelNotInUse(removal(undefined, ['1.0', '2.0'], ['1.0', '2.0']), uses); })).toMatchObject({
      code: 'SLUICE_MODEL_IN_USE',
      message:
        'cannot unregister model `iris`: workflows `audit`, `triage` use it and would fail without it; unregister those workflows first (DELETE /workflows/audit, DELETE /workflows/triage), then the model',
      details: { model: 'iris', workflows: ['audit', 'triage'] },
    });
  });

  it('allows removing a model no workflow uses', () => {
    expect(() => { checkModelNotInUse(removal(undefined, ['1.0'], ['1.0']), []); }).not.toThrow();
  });
});
