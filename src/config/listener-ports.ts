import { lookup as dnsLookup } from 'node:dns/promises';
import { SluiceError } from '../sdk/errors/index.js';
import { addressesOverlap, bindAddressOf, type BindAddress } from './listener-hosts.js';
import type { SluiceConfig } from './sluice-config.js';

/** A listener that will open, by its key. */
interface Listener {
  readonly key: string;
  readonly host: string;
  readonly port: number;
}

/** Resolves a host name to the address `listen` would bind (the first one the system's resolver gives). */
export type HostLookup = (host: string) => Promise<BindAddress>;

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

/** Pairs of listeners on one port (not 0: a free port each), the later one first. */
function sharingAPort(listeners: readonly Listener[]): [Listener, Listener][] {
  return listeners.flatMap((second, i) => listeners.slice(0, i).filter((first) => first.port !== 0 && first.port === second.port).map((first): [Listener, Listener] => [second, first]));
}

/** How a host appears in a message: with the address it resolved to, when that differs. */
function hostText(host: string, address: BindAddress | undefined): string {
  return address === undefined || address.address === host ? host : `${host} (${address.address})`;
}

function clash(second: Listener, first: Listener, addresses?: readonly [BindAddress, BindAddress]): SluiceError {
  const hosts = second.host === first.host ? '' : `, and their hosts ${hostText(second.host, addresses?.[0])} and ${hostText(first.host, addresses?.[1])} overlap`;
  return new SluiceError(
    'SLUICE_CONFIG_INVALID',
    `configuration: \`${second.key}.port\` ${second.port} is also \`${first.key}.port\`${hosts}; give each listener a port of its own (0 picks a free one)`,
    { source: 'configuration' },
  );
}

/**
 * Refuses a configuration in which two listeners would bind the same port on overlapping hosts, naming both
 * keys, rather than failing with `EADDRINUSE` once the models have loaded: the same host, or IP addresses
 * that overlap (`0.0.0.0` and any IPv4 address, `::` and any address, `127.0.0.1` and `::ffff:127.0.0.1`).
 * A host name beside another host is left to {@link checkListenerAddresses}, which resolves it. Port 0 (a
 * free port each) never clashes. Throws `SLUICE_CONFIG_INVALID`.
 */
export function checkListenerPorts(config: SluiceConfig): void {
  for (const [second, first] of sharingAPort(listenersOf(config))) {
    if (second.host.toLowerCase() === first.host.toLowerCase()) throw clash(second, first);
    const [a, b] = [bindAddressOf(second.host), bindAddressOf(first.host)];
    if (a !== undefined && b !== undefined && addressesOverlap(a, b)) throw clash(second, first);
  }
}

const systemLookup: HostLookup = async (host) => {
  const { address } = await dnsLookup(host);
  const canonical = bindAddressOf(address);
  if (canonical === undefined) throw new Error(`${host} resolved to ${address}, which is no IP address`);
  return canonical;
};

/**
 * What {@link checkListenerPorts} leaves open: two listeners on one port where a host is a name
 * (`localhost` beside `127.0.0.1`). Names are resolved as `listen` resolves them, and listeners whose
 * addresses overlap are refused, naming both keys and the addresses. A name that cannot be resolved is
 * left to `listen`, whose error names its key. Only listeners sharing a port are looked up. Throws
 * `SLUICE_CONFIG_INVALID`.
 */
export async function checkListenerAddresses(config: SluiceConfig, lookup: HostLookup = systemLookup): Promise<void> {
  const resolved = new Map<string, Promise<BindAddress | undefined>>();
  const addressOf = (host: string): Promise<BindAddress | undefined> => {
    const literal = bindAddressOf(host);
    if (literal !== undefined) return Promise.resolve(literal);
    let found = resolved.get(host);
    if (found === undefined) {
      found = lookup(host).catch(() => undefined);
      resolved.set(host, found);
    }
    return found;
  };
  for (const [second, first] of sharingAPort(listenersOf(config))) {
    const [a, b] = await Promise.all([addressOf(second.host), addressOf(first.host)]);
    if (a !== undefined && b !== undefined && addressesOverlap(a, b)) throw clash(second, first, [a, b]);
  }
}
