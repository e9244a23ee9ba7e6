import { SluiceError } from '../sdk/errors/index.js';
import type { ListenerConfig } from '../config/index.js';

/** A listener of the configuration, by its key (`inference`, `grpc.management`). */
export interface NamedListener extends ListenerConfig {
  readonly key: string;
}

/** The fields Node's errors of `listen` and of the host's lookup carry. */
interface SystemError {
  readonly code?: unknown;
  readonly port?: unknown;
  readonly hostname?: unknown;
}

/** What went wrong, as the key to change and what to do; undefined for an error no setting explains. */
function explain(code: unknown, { key, host, port }: NamedListener): { key: string; message: string } | undefined {
  switch (code) {
    case 'EADDRINUSE':
      return { key: `${key}.port`, message: `port ${port} is already in use on ${host}; stop what listens there, or choose another port (0 picks a free one)` };
    case 'EACCES':
      return { key: `${key}.port`, message: `this user may not listen on port ${port} of ${host} (ports below 1024 need privileges); choose a port from 1024 up, or 0 for a free one` };
    case 'EADDRNOTAVAIL':
      return { key: `${key}.host`, message: `${host} is no address of this machine; give one of its addresses, 127.0.0.1, or 0.0.0.0 for every interface` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return { key: `${key}.host`, message: `${JSON.stringify(host)} cannot be resolved to an address (${code}); fix the host name, or give an IP address` };
    default:
      return undefined;
  }
}

/** The listener of `listeners` an error of opening them is about: by its port, or by its host for a lookup. */
function listenerOf(error: SystemError, listeners: readonly NamedListener[]): NamedListener | undefined {
  if (listeners.length === 1) return listeners[0];
  return (
    listeners.find((l) => typeof error.port === 'number' && error.port !== 0 && l.port === error.port) ??
    listeners.find((l) => typeof error.hostname === 'string' && l.host === error.hostname)
  );
}

/**
 * A port that could not be opened, as a `SLUICE_CONFIG_INVALID` error naming the key to change
 * (`details.key`, so the CLI puts where the value came from in front) and what to do: a port in use or
 * needing privileges, a host that is no local address or cannot be resolved. `listeners` are those the
 * failed step opened; any other error is returned as it is.
 */
export function listenFailure(error: unknown, listeners: readonly NamedListener[]): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const system = error as SystemError;
  const listener = listenerOf(system, listeners);
  const explained = listener && explain(system.code, listener);
  if (explained === undefined) return error;
  return new SluiceError('SLUICE_CONFIG_INVALID', `\`${explained.key}\`: ${explained.message}`, { key: explained.key }, { cause: error });
}
