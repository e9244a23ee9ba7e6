import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../../support/temp-dir.js';
import { configErrorMessage, load, writeConfigFile } from './config-test-support.js';

describe('listener ports', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('refuses two listeners on one port, naming both keys', async () => {
    await writeConfigFile(dir, 'inference: { port: 8880 }\nmanagement: { port: 8880 }\n');
    expect(configErrorMessage(() => load(dir))).toBe(
      'configuration: `management.port` 8880 is also `inference.port`; give each listener a port of its own (0 picks a free one)',
    );
  });

  it('refuses a gRPC port that an HTTP listener takes, also across a wildcard host', async () => {
    await writeConfigFile(dir, 'metrics: { host: 0.0.0.0, port: 7070 }\n');
    expect(configErrorMessage(() => load(dir))).toMatch(/^configuration: `grpc\.inference\.port` 7070 is also `metrics\.port`/);
  });

  it('takes one port on two different hosts, any number of free ports, and gRPC ports while gRPC is off', async () => {
    await writeConfigFile(dir, 'inference: { host: 127.0.0.1, port: 8880 }\nmanagement: { host: 127.0.0.2, port: 8880 }\nmetrics: { port: 0 }\ngrpc: { enabled: false, inference: { port: 8081 }, management: { port: 0 } }\n');
    expect(load(dir).management.port).toBe(8880);
  });
});
