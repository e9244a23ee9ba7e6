import { lookup } from 'node:dns/promises';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { checkListenerAddresses, type HostLookup } from '../../../src/config/index.js';
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

  it('refuses one port on an IPv4 address and the same address written as IPv4-mapped IPv6', async () => {
    await writeConfigFile(dir, "inference: { host: 127.0.0.1, port: 8880 }\nmanagement: { host: '::ffff:127.0.0.1', port: 8880 }\n");
    expect(configErrorMessage(() => load(dir))).toBe(
      'configuration: `management.port` 8880 is also `inference.port`, and their hosts ::ffff:127.0.0.1 and 127.0.0.1 overlap; give each listener a port of its own (0 picks a free one)',
    );
  });

  it('refuses one port on :: and on an IPv4 address, which :: takes too', async () => {
    await writeConfigFile(dir, "inference: { host: '::', port: 8880 }\nmanagement: { host: 127.0.0.2, port: 8880 }\n");
    expect(configErrorMessage(() => load(dir))).toMatch(/^configuration: `management\.port` 8880 is also `inference\.port`, and their hosts 127\.0\.0\.2 and :: overlap;/);
  });

  it('refuses one port on one IPv6 address written two ways', async () => {
    await writeConfigFile(dir, "inference: { host: '0:0:0:0:0:0:0:1', port: 8880 }\nmanagement: { host: '::1', port: 8880 }\n");
    expect(configErrorMessage(() => load(dir))).toMatch(/^configuration: `management\.port` 8880 is also `inference\.port`/);
  });

  it('takes one port on 0.0.0.0 and on an IPv6 address, which 0.0.0.0 does not take', async () => {
    await writeConfigFile(dir, "inference: { host: 0.0.0.0, port: 8880 }\nmanagement: { host: '::1', port: 8880 }\n");
    expect(load(dir).management.host).toBe('::1');
  });
});

describe('listener host names', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  /** A lookup that knows only `names`. */
  const lookUpIn = (names: Readonly<Record<string, string>>): HostLookup => (host) => {
    const address = names[host];
    return address === undefined ? Promise.reject(new Error(`ENOTFOUND ${host}`)) : Promise.resolve({ family: address.includes(':') ? 6 : 4, address });
  };

  it('are left to the address check when a literal address shares their port', async () => {
    await writeConfigFile(dir, 'inference: { host: 127.0.0.1, port: 8880 }\nmanagement: { host: localhost, port: 8880 }\n');
    expect(load(dir).management.host).toBe('localhost');
  });

  it('are refused, once resolved, on the address another listener of their port takes, naming both keys and the address', async () => {
    await writeConfigFile(dir, 'inference: { host: 127.0.0.1, port: 8880 }\nmanagement: { host: localhost, port: 8880 }\n');
    await expect(checkListenerAddresses(load(dir), lookUpIn({ localhost: '127.0.0.1' }))).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      message:
        'configuration: `management.port` 8880 is also `inference.port`, and their hosts localhost (127.0.0.1) and 127.0.0.1 overlap; give each listener a port of its own (0 picks a free one)',
    });
  });

  it('are resolved as the system resolves them', async () => {
    const { address } = await lookup('localhost');
    await writeConfigFile(dir, `inference: { host: '${address}', port: 8880 }\nmanagement: { host: localhost, port: 8880 }\n`);
    await expect(checkListenerAddresses(load(dir))).rejects.toMatchObject({ code: 'SLUICE_CONFIG_INVALID', message: expect.stringContaining(`their hosts localhost (${address}) and ${address} overlap`) as unknown });
  });

  it('pass when they resolve to an address the other listener does not take', async () => {
    await writeConfigFile(dir, 'inference: { host: 0.0.0.0, port: 8880 }\nmanagement: { host: localhost, port: 8880 }\n');
    await expect(checkListenerAddresses(load(dir), lookUpIn({ localhost: '::1' }))).resolves.toBeUndefined();
  });

  it('are left to listen when they cannot be resolved, whose error names the key', async () => {
    await writeConfigFile(dir, 'inference: { host: 127.0.0.1, port: 8880 }\nmanagement: { host: nowhere.invalid, port: 8880 }\n');
    await expect(checkListenerAddresses(load(dir), lookUpIn({}))).resolves.toBeUndefined();
  });

  it('are not looked up when no other listener shares their port', async () => {
    await writeConfigFile(dir, 'inference: { host: localhost, port: 8880 }\nmanagement: { host: localhost, port: 8881 }\n');
    const looked: string[] = [];
    await checkListenerAddresses(load(dir), (host) => {
      looked.push(host);
      return Promise.reject(new Error('not expected'));
    });
    expect(looked).toEqual([]);
  });
});
