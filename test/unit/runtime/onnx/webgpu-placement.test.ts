import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/common/errors/index.js';
import { WebGpuPlacement } from '../../../../src/runtime/onnx/webgpu-placement.js';

describe('WebGpuPlacement', () => {
  it('takes any number of WebGPU sessions on one thread', () => {
    const placement = new WebGpuPlacement();
    placement.claim('session thread', 'a.onnx');
    expect(() => placement.claim('session thread', 'b.onnx')).not.toThrow();
  });

  it('refuses a WebGPU session on the event loop while one runs on the session thread, saying what to change', () => {
    const placement = new WebGpuPlacement();
    placement.claim('session thread', 'a.onnx');
    expect(() => placement.claim('event loop', 'b.onnx')).toThrow(
      new SluiceError(
        'SLUICE_MODEL_LOAD_FAILED',
        "cannot run b.onnx on WebGPU on the event loop: 1 WebGPU session(s) already run on the session thread, and ONNX Runtime's WebGPU provider breaks when two threads run at once; give every WebGPU model the same session thread setting (GPU executor option sessionThread)",
      ),
    );
  });

  it('lets the other thread take WebGPU once every session has been released', () => {
    const placement = new WebGpuPlacement();
    const releaseA = placement.claim('event loop', 'a.onnx');
    const releaseB = placement.claim('event loop', 'b.onnx');
    releaseA();
    expect(() => placement.claim('session thread', 'c.onnx')).toThrow(/1 WebGPU session\(s\) already run on the event loop/);
    releaseB();
    expect(() => placement.claim('session thread', 'c.onnx')).not.toThrow();
  });

  it('counts a release once, however often it is called', () => {
    const placement = new WebGpuPlacement();
    const releaseA = placement.claim('event loop', 'a.onnx');
    placement.claim('event loop', 'b.onnx');
    releaseA();
    releaseA();
    expect(() => placement.claim('session thread', 'c.onnx')).toThrow(SluiceError);
  });
});
