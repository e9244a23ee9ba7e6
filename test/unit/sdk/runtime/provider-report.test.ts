import { describe, expect, it } from '@jest/globals';
import { providerReport, type ExecutionProviderSelection, type LoadedModel } from '../../../../src/sdk/index.js';

/** Only what the report reads of a loaded model. */
function loadedOn(selection: ExecutionProviderSelection | undefined, active = selection?.active ?? 'cpu'): LoadedModel {
  return {
    inputs: [],
    outputs: [],
    executionProvider: active,
    ...(selection ? { providerSelection: selection } : {}),
    run: () => Promise.resolve([]),
    release: () => Promise.resolve(),
  };
}

describe('providerReport', () => {
  it('informs when the first preference is active', () => {
    const report = providerReport(loadedOn({ active: 'cuda', rejected: [] }), ['cuda', 'webgpu', 'cpu'], ['cuda:0', 'cuda:1']);
    expect(report).toEqual({
      level: 'info',
      message: 'execution provider cuda on cuda:0, cuda:1',
      fields: { executionProvider: 'cuda', devices: ['cuda:0', 'cuda:1'], preference: ['cuda', 'webgpu', 'cpu'], notUsed: {} },
    });
  });

  it('warns with the reason of every provider passed over, on one line', () => {
    const selection = {
      active: 'cpu',
      rejected: [
        { provider: 'cuda', reason: 'Failed to load shared library' },
        { provider: 'webgpu', reason: 'No supported adapters\n' },
      ],
    } as const;
    const report = providerReport(loadedOn(selection), ['cuda', 'webgpu', 'cpu'], ['cpu']);
    expect(report).toMatchObject({
      level: 'warn',
      message: 'execution provider cpu on cpu; not used: cuda: Failed to load shared library; webgpu: No supported adapters',
      fields: { notUsed: { cuda: 'Failed to load shared library', webgpu: 'No supported adapters' } },
    });
  });

  it('says so when the runtime gave no reason', () => {
    const report = providerReport(loadedOn(undefined, 'cpu'), ['webgpu', 'cpu'], ['cpu']);
    expect(report.message).toBe('execution provider cpu on cpu; not used: webgpu: no reason reported by the runtime');
  });

  it('warns, naming every provider of a list without cpu, when it fell back to cpu', () => {
    const selection = { active: 'cpu', rejected: [{ provider: 'cuda', reason: 'Failed to load shared library' }] } as const;
    const report = providerReport(loadedOn(selection), ['cuda'], ['cpu']);
    expect(report).toMatchObject({
      level: 'warn',
      message: 'execution provider cpu on cpu; not used: cuda: Failed to load shared library',
      fields: { preference: ['cuda'], notUsed: { cuda: 'Failed to load shared library' } },
    });
  });
});
