import { describe, expect, it } from '@jest/globals';
import { kserveV1Methods, narrowedToKServeV1, predictedModel } from '../../../../../src/api/rest/routing/kserve-v1-path.js';

const ROUTED = ['GET', 'HEAD', 'POST'];

describe('KServe v1 paths', () => {
  it('takes GET and HEAD for a model, POST for its :predict, nothing for another verb', () => {
    expect(kserveV1Methods('iris')).toEqual(['GET', 'HEAD']);
    expect(kserveV1Methods('iris:predict')).toEqual(['POST']);
    expect(kserveV1Methods('iris:explain')).toEqual([]);
    expect(kserveV1Methods(':predict')).toEqual([]);
  });

  it('names the model of a :predict segment only', () => {
    expect(predictedModel('iris:predict')).toBe('iris');
    expect(predictedModel('iris')).toBeUndefined();
    expect(predictedModel(':predict')).toBeUndefined();
  });

  it('narrows what the router takes for /v1/models/{segment} to the route of its verb', () => {
    expect(narrowedToKServeV1('/v1/models/iris:predict', ROUTED)).toEqual(['POST']);
    expect(narrowedToKServeV1('/v1/models/iris%3Apredict', ROUTED)).toEqual(['POST']);
    expect(narrowedToKServeV1('/v1/models/iris', ROUTED)).toEqual(['GET', 'HEAD']);
  });

  it('leaves other paths as the router found them', () => {
    expect(narrowedToKServeV1('/v2/models/iris:predict', ROUTED)).toEqual(ROUTED);
    expect(narrowedToKServeV1('/v1/models/iris/ready', ROUTED)).toEqual(ROUTED);
  });
});
