import { afterEach, describe, expect, it } from '@jest/globals';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { keepOnnxRuntimeTelemetryOff } from '../../../../src/runtime/onnx/onnx-runtime-telemetry.js';

describe('keepOnnxRuntimeTelemetryOff', () => {
  it('turns ONNX Runtime telemetry off where nobody chose: ORT_DISABLE_TELEMETRY=1', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(keepOnnxRuntimeTelemetryOff(env)).toBe(true);
    expect(env).toEqual({ ORT_DISABLE_TELEMETRY: '1' });
  });

  it('leaves the choice of whoever started the process: ORT_DISABLE_TELEMETRY=0 stays 0', () => {
    const env: NodeJS.ProcessEnv = { ORT_DISABLE_TELEMETRY: '0' };
    expect(keepOnnxRuntimeTelemetryOff(env)).toBe(false);
    expect(env).toEqual({ ORT_DISABLE_TELEMETRY: '0' });
  });

  it('reads an empty value as no choice, which ONNX Runtime would read as telemetry on', () => {
    const env: NodeJS.ProcessEnv = { ORT_DISABLE_TELEMETRY: '' };
    expect(keepOnnxRuntimeTelemetryOff(env)).toBe(true);
    expect(env).toEqual({ ORT_DISABLE_TELEMETRY: '1' });
  });
});

describe('OnnxRuntime', () => {
  const before = process.env['ORT_DISABLE_TELEMETRY'];
  afterEach(() => {
    if (before === undefined) delete process.env['ORT_DISABLE_TELEMETRY'];
    else process.env['ORT_DISABLE_TELEMETRY'] = before;
  });

  it('keeps ONNX Runtime telemetry off for the process from the moment it is made, before any session', () => {
    delete process.env['ORT_DISABLE_TELEMETRY'];
    new OnnxRuntime();
    expect(process.env['ORT_DISABLE_TELEMETRY']).toBe('1');
  });
});
