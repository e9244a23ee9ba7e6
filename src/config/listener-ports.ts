import { SluiceError } from '../common/errors/index.js';
import type { SluiceConfig } from './sluice-config.js';

/** Hosts that bind every address: a port taken on one of them is taken on every host. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** A listener that will open, by its key. */
interface Listener {
  readonly key: string;
  readonly host: string;
  readonly port: number;
}

/** The listeners of `config` that will open. */
function listenersOf(config: SluiceConfig): Listener[] {
  const listeners: Listener[] = [
    { key: 'inference', ...config.inference },
    { key: 'management', ...config.management },
    { key: 'metrics', ...config.metrics },
  ];
  if (config.grpc.enabled) listeners.push({ key: 'grpc.inference', ...config.grpc.inference }, { key: 'grpc.management', ...config.grpc.management });
  return listeners;
}

/** Whether `a` and `b` would bind the same port: equal and not 0, on one host or a wildcard. */
function clash(a: Listener, b: Listener): boolean {
  return a.port !== 0 && a.port === b.port && (a.host === b.host || WILDCARD_HOSTS.has(a.host) || WILDCARD_HOSTS.has(b.host));
}

/**
 * Refuses a configuration in which two listeners would bind the same port on the same (or every) host,
 * naming both keys, rather than failing with `EADDRINUSE` once the models have loaded. Port 0 (a free
 * port each) never clashes. Throws `SLUICE_CONFIG_INVALID`.
 */
export function checkListenerPorts(config: SluiceConfig): void {
  const listeners = listenersOf(config);
  listeners.forEach((second, i) => {
    const first = listeners.slice(0, i).find((earlier) => clash(earlier, second));
    if (first === undefined) return;
    throw new SluiceError(
      'SLUICE_CONFIG_INVALID',
      `configuration: \`${second.key}.port\` ${second.port} is also \`${first.key}.port\`; give each listener a port of its own (0 picks a free one)`,
      { source: 'configuration' },
    );
  });
}
