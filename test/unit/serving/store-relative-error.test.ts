import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { storeRelativeError, storeRelativeText } from '../../../src/serving/store-relative-error.js';

const config = { modelStore: '/srv/sluice/model-store', workflowStore: '/srv/sluice/model-store/workflows' };

describe('storeRelativeError', () => {
  it('names a path inside the model store relative to it, keeping the full path in the details and the original as its cause', () => {
    const original = new SluiceError('SLUICE_MODEL_LOAD_FAILED', 'cannot load ONNX model /srv/sluice/model-store/.extracted/x-1-0123456789ab/model.onnx: Load model from /srv/sluice/model-store/.extracted/x-1-0123456789ab/model.onnx failed', {
      modelPath: '/srv/sluice/model-store/.extracted/x-1-0123456789ab/model.onnx',
    });
    const named = storeRelativeError(original, config) as SluiceError;
    expect(named).toMatchObject({
      code: 'SLUICE_MODEL_LOAD_FAILED',
      message: 'cannot load ONNX model .extracted/x-1-0123456789ab/model.onnx: Load model from .extracted/x-1-0123456789ab/model.onnx failed',
      details: { modelPath: '/srv/sluice/model-store/.extracted/x-1-0123456789ab/model.onnx' },
      cause: original,
    });
  });

  it('names a path of a store inside the other relative to the inner one', () => {
    expect(storeRelativeText('/srv/sluice/model-store/workflows/ocr.yaml: bad', config)).toBe('ocr.yaml: bad');
  });

  it('names a store itself by its configuration key', () => {
    expect(storeRelativeText('/srv/sluice/model-store: the model store is not a directory', config)).toBe('modelStore: the model store is not a directory');
  });

  it('leaves a path that only starts like a store alone', () => {
    expect(storeRelativeText('/srv/sluice/model-store-old/iris/model.yaml: bad', config)).toBe('/srv/sluice/model-store-old/iris/model.yaml: bad');
  });

  it('names paths in the problems an error lists too', () => {
    const original = new SluiceError('SLUICE_MANIFEST_INVALID', '/srv/sluice/model-store/iris/model.yaml: 1 problem', { problems: ['/srv/sluice/model-store/iris/labels.txt: unreadable', 7] });
    expect(storeRelativeError(original, config)).toMatchObject({ message: 'iris/model.yaml: 1 problem', details: { problems: ['iris/labels.txt: unreadable', 7] } });
  });

  it('answers an error that names no store path as it is', () => {
    const original = new SluiceError('SLUICE_MODEL_NOT_FOUND', 'model `x` is not registered');
    expect(storeRelativeError(original, config)).toBe(original);
  });
});
