import { describe, expect, it } from '@jest/globals';
import { isSluiceError } from '../../../src/sdk/errors/index.js';
import { parseStartFlags } from '../../../src/cli/start-flags.js';

function configError(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (isSluiceError(error, 'SLUICE_CONFIG_INVALID')) return error.message;
    throw error;
  }
  throw new Error('no SLUICE_CONFIG_INVALID');
}

describe('sluice start flags', () => {
  it('sets modelDir and modelName from --model-dir and --model-name', () => {
    expect(parseStartFlags(['--model-dir', '/mnt/models', '--model-name=digits']).overrides).toEqual({ modelDir: '/mnt/models', modelName: 'digits' });
  });

  it('sets the inference, management and gRPC inference ports, each alone in its section', () => {
    expect(parseStartFlags(['--inference-port', '8080', '--grpc-inference-port=8081', '--management-port', '8085']).overrides).toEqual({
      inference: { port: 8080 },
      management: { port: 8085 },
      grpc: { inference: { port: 8081 } },
    });
  });

  it('refuses a port that is no integer as SLUICE_INFERENCE_PORT would be refused, naming the flags and the key', () => {
    expect(configError(() => parseStartFlags(['--inference-port', 'http']))).toBe('command-line flags: `inference.port` must be integer (got "http")');
  });
});
