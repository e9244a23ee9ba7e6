import { describe, expect, it } from '@jest/globals';
import { kserveInstances } from '../../../../src/sdk/index.js';

const EXPECTED = 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})';
const BOTH_LISTS = 'the body has both "instances" and "inputs"; send the instances under one of them: {"instances": [...]} or {"inputs": [...]}';

function refusal(body: unknown): unknown {
  try {
    kserveInstances(body);
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  return 'accepted';
}

describe('kserveInstances', () => {
  it('makes one JSON request per instance, marked as an instance, in order', () => {
    expect(kserveInstances({ instances: [[1, 2], { x: 3 }] })).toEqual({
      listName: 'instances',
      requests: [
        { body: [1, 2], contentType: 'application/json', instance: true },
        { body: { x: 3 }, contentType: 'application/json', instance: true },
      ],
    });
  });

  it('reads inputs as the list of instances, naming it inputs', () => {
    expect(kserveInstances({ inputs: [[1, 2]] }).listName).toBe('inputs');
  });

  it('refuses a body with both instances and inputs, naming both', () => {
    expect(refusal({ instances: [[1, 2]], inputs: [[3, 4]] })).toEqual({ code: 'SLUICE_REQUEST_INVALID', message: BOTH_LISTS });
  });

  it('refuses a body with instances null beside inputs: the key is there, so the body names both', () => {
    expect(refusal({ instances: null, inputs: [[3, 4]] })).toEqual({ code: 'SLUICE_REQUEST_INVALID', message: BOTH_LISTS });
  });

  it('refuses a body without either list, or that is not an object', () => {
    expect(refusal({ rows: [] })).toEqual({ code: 'SLUICE_REQUEST_INVALID', message: EXPECTED });
    expect(refusal([[1, 2]])).toEqual({ code: 'SLUICE_REQUEST_INVALID', message: EXPECTED });
  });

  it('refuses a list that is not a list, saying what it is', () => {
    expect(refusal({ instances: null })).toEqual({
      code: 'SLUICE_REQUEST_INVALID',
      message: `${EXPECTED}; "instances" is null, not a list with one entry per prediction`,
    });
  });

  it('refuses an empty list', () => {
    expect(refusal({ inputs: [] })).toEqual({ code: 'SLUICE_REQUEST_INVALID', message: '"inputs" is empty; send at least one instance' });
  });
});
