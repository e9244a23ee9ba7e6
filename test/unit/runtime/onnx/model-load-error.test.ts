import { describe, expect, it } from '@jest/globals';
import { runInNewContext } from 'node:vm';
import { modelLoadFailed, reasonOf } from '../../../../src/runtime/onnx/model-load-error.js';

describe('modelLoadFailed', () => {
  it('names the file and the reason in the message and the details', () => {
    const error = modelLoadFailed('/models/a.onnx', 'Protobuf parsing failed.');
    expect(error.code).toBe('SLUICE_MODEL_LOAD_FAILED');
    expect(error.message).toBe('cannot load ONNX model /models/a.onnx: Protobuf parsing failed.');
    expect(error.details).toEqual({ modelPath: '/models/a.onnx', reason: 'Protobuf parsing failed.' });
  });
});

describe('reasonOf', () => {
  it('takes the message of an error raised in another realm, as the native binding does', () => {
    const foreign: unknown = runInNewContext('new Error("  boom  ")');
    expect(reasonOf(foreign)).toBe('boom');
  });

  it('stringifies something thrown that is not an error', () => {
    expect(reasonOf(42)).toBe('42');
  });
});
