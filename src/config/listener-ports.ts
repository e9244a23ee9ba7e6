import { SluiceError } from '../common/errors/index.js';
import type { SluiceConfig } from './sluice-config.js';

/** Hosts that bind every address: a port taken on one of them is taken on every host. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** The listeners of `config` that will open, by their key. */
function listenersOf(config: SluiceConfig): [string, { host: string; port: number }][] {
  const listeners: [string, { host: string; port: number }][] = [
    ['inference', config.inference],
    ['management', config.management],
    ['metrics', config.metrics],
  ];
  if (config.grpc.enabled) listeners.push(['grpc.inference', config.grpc.inference], ['grpc.management', config.grpc.management]);
  return listeners;
}

/**
 * Refuses a configuration in which two listeners would bind the same port on the same (or every) host,
 * naming both keys, rather than failing with `EADDRINUSE` once the models have loaded. Port 0 (a free
 * port each) never clashes. Throws `SLUICE_CONFIG_INVALID`.
 */
export function checkListenerPorts(config: SluiceConfig): void {
  const listeners = listenersOf(config);
  for (let i = 0; i < listeners.length; i++) {
    for (let j = i + 1; j < listeners.length; j++) {
      const [firstKey, first] = listeners[i] as [string, { host: string; port: number }];
      const [secondKey, second] = listeners[j] as [string, { host: string; port: number }];
      const sameHost = first.host === second.host || WILDCARD_HOSTS.has(first.host) || WILDCARD_HOSTS.has(second.host);
      if (first.port !== 0 && first.port === second.port && sameHost) {
        throw new SluiceError(
          'SLUICE_CONFIG_INVALID',
          `configuration: \`${secondKey}.port\` ${second.port} is also \`${firstKey}.port\`; give each listener a port of its own (0 picks a free one)`,
          { source: 'configuration' },
        );
      }
    }
  }
}
