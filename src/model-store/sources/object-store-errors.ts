import { SluiceError } from '../../sdk/errors/index.js';

/** What went wrong with an object-store call, whatever SDK reported it. */
export type ObjectStoreFailureKind = 'not-found' | 'denied' | 'unavailable' | 'changed' | 'timeout' | 'other';

/** The parts of an SDK error that are safe to show: a code name and an HTTP status, never a message. */
export interface SdkFailure {
  readonly kind: ObjectStoreFailureKind;
  /** The service's error code or the SDK's error name (`NoSuchBucket`, `InvalidAccessKeyId`, `ECONNREFUSED`). */
  readonly code: string;
  readonly status?: number;
}

function described(failure: SdkFailure): string {
  return failure.status === undefined ? failure.code : `${failure.code}, HTTP ${failure.status}`;
}

/**
 * The Sluice error for a failed object-store call about `what` (the bucket, a key). Only the error's code
 * and status are shown: SDK messages can echo request details, and none of a credential may reach an
 * answer or a log.
 */
export function objectStoreError(label: string, url: string, what: string, failure: SdkFailure, credentialsAdvice: string): SluiceError {
  const details = { url, source: label, code: failure.code, ...(failure.status !== undefined ? { status: failure.status } : {}) };
  switch (failure.kind) {
    case 'not-found':
      return new SluiceError('SLUICE_SOURCE_NOT_FOUND', `${what} does not exist (${described(failure)}); check the URL ${url}`, details);
    case 'denied':
      return new SluiceError(
        'SLUICE_SOURCE_ACCESS_DENIED',
        `access to ${what} was refused (${described(failure)}); ${credentialsAdvice}, and that they may list and read it`,
        details,
      );
    case 'unavailable':
      return new SluiceError(
        'SLUICE_SOURCE_UNAVAILABLE',
        `reading ${what} failed: the store could not be reached or kept failing (${described(failure)}), retries included; try again later`,
        details,
      );
    case 'changed':
      return new SluiceError(
        'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
        `${what} changed while it was being downloaded (${described(failure)}); register it again once it stays put`,
        details,
      );
    case 'timeout':
      return new SluiceError('SLUICE_MANAGEMENT_DOWNLOAD_FAILED', `reading ${what} did not finish in time; raise download.timeoutMs or try again`, details);
    default:
      return new SluiceError('SLUICE_MANAGEMENT_DOWNLOAD_FAILED', `reading ${what} failed (${described(failure)}); check the URL and the store, then try again`, details);
  }
}

/** The kind of a failure from its HTTP status, when the code did not tell. */
export function kindOfStatus(status: number | undefined): ObjectStoreFailureKind {
  if (status === undefined) return 'other';
  if (status === 404) return 'not-found';
  if (status === 401 || status === 403) return 'denied';
  if (status === 412) return 'changed';
  if (status === 408 || status === 429 || status >= 500) return 'unavailable';
  return 'other';
}

const NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** Whether a Node error code says the store could not be reached. */
export function isNetworkCode(code: string | undefined): boolean {
  return code !== undefined && NETWORK_CODES.has(code);
}
