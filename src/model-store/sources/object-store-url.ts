import { SluiceError } from '../../sdk/errors/index.js';

/** The object stores a model source may live in. */
export type ObjectStoreScheme = 's3' | 'azure';

/** Where a model source lies in an object store, parsed from `s3://bucket/prefix` or `azure://account/container/prefix`. */
export interface ObjectStoreLocation {
  readonly scheme: ObjectStoreScheme;
  /** The Azure storage account; absent for S3. */
  readonly account?: string;
  /** The S3 bucket or the Azure container. */
  readonly bucket: string;
  /** The key prefix (or the key of one object) inside the bucket; '' for the whole bucket. */
  readonly prefix: string;
  /** The URL as given, which allow-list patterns match, logs print and snapshots record. */
  readonly url: string;
}

const SCHEME = /^(s3|azure):\/\//i;
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const AZURE_ACCOUNT = /^[a-z0-9]{3,24}$/;
const AZURE_CONTAINER = /^(?:\$root|[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62})$/;

const ADVICE =
  'object-store URLs are written s3://bucket/prefix or azure://account/container/prefix, without credentials, query or fragment, and must match the allowed URL patterns';

/** A refused object-store URL. */
export function objectStoreUrlNotAllowed(url: string, reason: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_URL_NOT_ALLOWED', `url ${JSON.stringify(url)} ${reason}; ${ADVICE}`, { url, reason });
}

/** Whether `url` names an object store (`s3://`, `azure://`), whatever else is wrong with it. */
export function isObjectStoreUrl(url: string): boolean {
  return SCHEME.test(url);
}

function prefixProblem(prefix: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(prefix)) return 'contains a backslash or a control character';
  if (/[?#]/.test(prefix)) return 'has a query or a fragment; signed URLs and other credentials in URLs are never accepted';
  if (prefix.split('/').some((segment) => segment === '..' || segment === '.')) return "contains a '.' or '..' path segment";
  if (prefix.startsWith('/') || prefix.includes('//')) return 'contains an empty path segment';
  return undefined;
}

/**
 * Parses an object-store URL without any network access: `s3://bucket/prefix` (S3 bucket name rules) or
 * `azure://account/container/prefix` (Azure account and container name rules). The prefix may be empty,
 * may end with '/', and is never percent-decoded: keys are taken as written. Throws
 * `SLUICE_MANAGEMENT_URL_NOT_ALLOWED` for credentials, a query or fragment, `.`/`..` segments, control
 * characters and names a bucket, account or container cannot have.
 */
export function parseObjectStoreUrl(url: string): ObjectStoreLocation {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 's3' && scheme !== 'azure') throw objectStoreUrlNotAllowed(url, 'is not an s3:// or azure:// URL');
  const rest = url.slice(scheme.length + 3);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash + 1);
  if (authority.includes('@') || authority.includes(':')) throw objectStoreUrlNotAllowed(url, 'carries credentials or a port; credentials in URLs are never accepted');
  const problem = prefixProblem(path);
  if (problem !== undefined) throw objectStoreUrlNotAllowed(url, problem);
  if (scheme === 's3') {
    if (!S3_BUCKET.test(authority) || authority.includes('..')) throw objectStoreUrlNotAllowed(url, `names ${JSON.stringify(authority)}, which is not a valid S3 bucket name`);
    return { scheme, bucket: authority, prefix: path, url };
  }
  if (!AZURE_ACCOUNT.test(authority)) throw objectStoreUrlNotAllowed(url, `names ${JSON.stringify(authority)}, which is not a valid Azure storage account name`);
  const containerEnd = path.indexOf('/');
  const container = containerEnd === -1 ? path : path.slice(0, containerEnd);
  if (!AZURE_CONTAINER.test(container)) {
    throw objectStoreUrlNotAllowed(url, `names the container ${JSON.stringify(container)}, which is not a valid Azure container name (azure://account/container/prefix)`);
  }
  return { scheme, account: authority, bucket: container, prefix: containerEnd === -1 ? '' : path.slice(containerEnd + 1), url };
}
