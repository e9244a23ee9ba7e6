import { isIP } from 'node:net';

/** An address a listener binds, canonical: IPv4 dotted, IPv6 compressed in lower case, IPv4-mapped IPv6 as IPv4. */
export interface BindAddress {
  readonly family: 4 | 6;
  readonly address: string;
}

const IPV4_MAPPED = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** `::ffff:7f00:1` → `127.0.0.1`; any other IPv6 address as it is. */
function unmapped(address: string): BindAddress {
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped === null) return { family: 6, address };
  const [high, low] = [parseInt(mapped[1] ?? '0', 16), parseInt(mapped[2] ?? '0', 16)];
  return { family: 4, address: [high >> 8, high & 255, low >> 8, low & 255].join('.') };
}

/**
 * The canonical form of `host` when it is an IP address (`0:0::1` → `::1`, `::ffff:127.0.0.1` →
 * `127.0.0.1`); undefined for a host name, which only a lookup turns into an address.
 */
export function bindAddressOf(host: string): BindAddress | undefined {
  const family = isIP(host);
  if (family === 4) return { family: 4, address: host };
  if (family !== 6) return undefined;
  try {
    // The URL parser writes IPv6 addresses in their canonical form.
    return unmapped(new URL(`http://[${host}]/`).hostname.slice(1, -1));
  } catch {
    // A scoped address (`fe80::1%eth0`) is no URL host: compared as written.
    return { family: 6, address: host.toLowerCase() };
  }
}

/**
 * Whether listening on `a` and on `b` (one port) would clash, as on Linux: the same address, `::` (which
 * Node opens for IPv4 too) beside any address, or `0.0.0.0` beside any IPv4 address. `0.0.0.0` beside an
 * IPv6 address does not clash.
 */
export function addressesOverlap(a: BindAddress, b: BindAddress): boolean {
  if (a.address === b.address || a.address === '::' || b.address === '::') return true;
  return (a.address === '0.0.0.0' && b.family === 4) || (b.address === '0.0.0.0' && a.family === 4);
}
