import { describe, expect, it } from '@jest/globals';
import { preparedTransferList } from '../../../../src/serving/handler-pool/transfer-list.js';

describe('preparedTransferList', () => {
  it('moves the buffer of a typed array that spans it', () => {
    const data = new Float32Array(4);
    expect(preparedTransferList([{ inputs: [{ name: 'x', datatype: 'FP32', shape: [4], data }] }])).toEqual([data.buffer]);
  });

  it('leaves a view onto part of a buffer alone', () => {
    const data = new Float32Array(8).subarray(4);
    expect(preparedTransferList([{ inputs: [{ name: 'x', datatype: 'FP32', shape: [4], data }] }])).toEqual([]);
  });

  it('leaves Node’s pooled Buffers alone', () => {
    const element = Buffer.from('abc');
    expect(preparedTransferList([{ inputs: [{ name: 'x', datatype: 'BYTES', shape: [1], data: [element] }] }])).toEqual([]);
  });

  it('moves the elements of a BYTES tensor, each buffer once', () => {
    const element = new Uint8Array(3);
    const inputs = [{ name: 'x', datatype: 'BYTES', shape: [2], data: [element, element] }];
    expect(preparedTransferList([{ inputs }, { inputs }])).toEqual([element.buffer]);
  });

  it('leaves shared memory alone', () => {
    const data = new Float32Array(new SharedArrayBuffer(16));
    expect(preparedTransferList([{ inputs: [{ name: 'x', datatype: 'FP32', shape: [4], data }] }])).toEqual([]);
  });

  it('skips entries that are not prepared requests', () => {
    expect(preparedTransferList([null, 3, { inputs: 'none' }])).toEqual([]);
  });
});
