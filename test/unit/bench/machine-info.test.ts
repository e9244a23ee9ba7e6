import { describe, expect, it } from '@jest/globals';
import { describeMachine } from '../../../bench/machine-info.js';

describe('describeMachine', () => {
  it('names cores, memory and versions', () => {
    expect(describeMachine({ cpus: 2, cpuModel: 'AMD EPYC', memoryGiB: 24, node: 'v20.20.2', onnxruntime: '1.30.0', platform: 'linux 6' })).toBe(
      '2 vCPU (AMD EPYC), 24 GiB, Node.js v20.20.2, onnxruntime-node 1.30.0, linux 6',
    );
  });
});
