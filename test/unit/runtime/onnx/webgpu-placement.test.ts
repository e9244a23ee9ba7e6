import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { WebGpuPlacement } from '../../../../src/runtime/onnx/webgpu-placement.js';

const DEVICE_0 = 'the session thread of device 0';
const DEVICE_1 = 'the session thread of device 1';

describe('WebGpuPlacement', () => {
  it('takes any number of WebGPU sessions on one thread', () => {
    const placement = new WebGpuPlacement();
    placement.claim(DEVICE_0, 'a.onnx');
    expect(() => placement.claim(DEVICE_0, 'b.onnx')).not.toThrow();
  });

  it('refuses a WebGPU session on the event loop while one runs on a session thread, saying what to change', () => {
    const placement = new WebGpuPlacement();
    placement.claim(DEVICE_0, 'a.onnx');
    expect(() => placement.claim('the event loop', 'b.onnx')).toThrow(
      new SluiceError(
        'SLUICE_MODEL_LOAD_FAILED',
        "cannot run b.onnx on WebGPU on the event loop: 1 WebGPU session(s) already run on the session thread of device 0, and ONNX Runtime's WebGPU provider breaks when two threads run at once; give every WebGPU model the same session thread setting (GPU executor option sessionThread) and the same first GPU (manifest device, GPU executor option deviceIds)",
      ),
    );
  });

  it("refuses a WebGPU session on another device's session thread", () => {
    const placement = new WebGpuPlacement();
    placement.claim(DEVICE_0, 'a.onnx');
    expect(() => placement.claim(DEVICE_1, 'b.onnx')).toThrow(
      /^cannot run b\.onnx on WebGPU on the session thread of device 1: 1 WebGPU session\(s\) already run on the session thread of device 0,/,
    );
  });

  it('lets another thread take WebGPU once every session has been released', () => {
    const placement = new WebGpuPlacement();
    const releaseA = placement.claim('the event loop', 'a.onnx');
    const releaseB = placement.claim('the event loop', 'b.onnx');
    releaseA();
    expect(() => placement.claim(DEVICE_0, 'c.onnx')).toThrow(/1 WebGPU session\(s\) already run on the event loop/);
    releaseB();
    expect(() => placement.claim(DEVICE_0, 'c.onnx')).not.toThrow();
  });

  it('counts a release once, however often it is called', () => {
    const placement = new WebGpuPlacement();
    const releaseA = placement.claim('the event loop', 'a.onnx');
    placement.claim('the event loop', 'b.onnx');
    releaseA();
    releaseA();
    expect(() => placement.claim(DEVICE_0, 'c.onnx')).toThrow(SluiceError);
  });
});
