import { AnonymousCredential, BlobServiceClient, StorageRetryPolicyType, StorageSharedKeyCredential, type ContainerClient, type StoragePipelineOptions } from '@azure/storage-blob';
import type { Readable } from 'node:stream';
import type { SluiceError } from '../../sdk/errors/index.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';
import { isNetworkCode, kindOfStatus, objectStoreError, type ObjectStoreFailureKind, type SdkFailure } from './object-store-errors.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** Tries per Azure call, the SDK's exponential retry policy between them. */
export const AZURE_MAX_TRIES = 5;

const CREDENTIALS_ADVICE = 'check the credentials Sluice runs with (AZURE_STORAGE_CONNECTION_STRING, or AZURE_STORAGE_KEY for the account)';

const DENIED = new Set(['AuthenticationFailed', 'AuthorizationFailure', 'AuthorizationPermissionMismatch', 'InsufficientAccountPermissions', 'NoAuthenticationInformation', 'PublicAccessNotPermitted']);
const NOT_FOUND = new Set(['ContainerNotFound', 'BlobNotFound', 'ResourceNotFound']);
const UNAVAILABLE = new Set(['ServerBusy', 'OperationTimedOut', 'InternalError']);

const PIPELINE: StoragePipelineOptions = { retryOptions: { maxTries: AZURE_MAX_TRIES, retryPolicyType: StorageRetryPolicyType.EXPONENTIAL } };

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function sdkFailure(error: unknown, signal: AbortSignal): SdkFailure {
  const code = field(error, 'code');
  const name = field(error, 'name');
  const status = field(error, 'statusCode');
  const shown = (typeof code === 'string' && code !== '' ? code : undefined) ?? nodeErrorCode(error) ?? (typeof name === 'string' ? name : 'Error');
  const httpStatus = typeof status === 'number' ? status : undefined;
  let kind: ObjectStoreFailureKind;
  if (signal.aborted) kind = 'timeout';
  else if (DENIED.has(shown)) kind = 'denied';
  else if (NOT_FOUND.has(shown)) kind = 'not-found';
  else if (shown === 'ConditionNotMet') kind = 'changed';
  else if (UNAVAILABLE.has(shown) || isNetworkCode(shown)) kind = 'unavailable';
  else kind = kindOfStatus(httpStatus);
  return { kind, code: shown, ...(httpStatus !== undefined ? { status: httpStatus } : {}) };
}

function accountOfConnectionString(connection: string): string | undefined {
  return /(?:^|;)\s*AccountName=([^;]+)/i.exec(connection)?.[1]?.trim();
}

/**
 * The Blob service client for `account` in the environment Sluice runs in: `AZURE_STORAGE_CONNECTION_STRING`
 * when it names this account (its `BlobEndpoint` points at another endpoint, such as Azurite), else the
 * account's public endpoint with `AZURE_STORAGE_KEY` as a shared key, else anonymous access (public
 * containers).
 */
export function blobServiceFromEnvironment(account: string, env: NodeJS.ProcessEnv = process.env): BlobServiceClient {
  const connection = env.AZURE_STORAGE_CONNECTION_STRING;
  if (connection !== undefined && connection !== '' && accountOfConnectionString(connection) === account) {
    return BlobServiceClient.fromConnectionString(connection, PIPELINE);
  }
  const url = `https://${account}.blob.core.windows.net`;
  const key = env.AZURE_STORAGE_KEY;
  const credential = key !== undefined && key !== '' ? new StorageSharedKeyCredential(account, key) : new AnonymousCredential();
  return new BlobServiceClient(url, credential, PIPELINE);
}

function quoted(etag: string): string {
  return `"${etag}"`;
}

function withoutQuotes(etag: string | undefined): string {
  return (etag ?? '').replace(/^"|"$/g, '');
}

function hexOf(md5: Uint8Array | undefined): string | undefined {
  return md5 === undefined || md5.length !== 16 ? undefined : Buffer.from(md5).toString('hex');
}

/** {@link ObjectStore} over one Azure Blob container through `@azure/storage-blob`. */
export class AzureObjectStore implements ObjectStore {
  readonly label: string;
  private readonly container: ContainerClient;

  constructor(
    service: BlobServiceClient,
    account: string,
    container: string,
    private readonly url: string,
  ) {
    this.container = service.getContainerClient(container);
    this.label = `azure container ${JSON.stringify(container)} of account ${JSON.stringify(account)}`;
  }

  async list(prefix: string, limit: number, signal: AbortSignal): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    try {
      for await (const page of this.container.listBlobsFlat({ prefix, abortSignal: signal }).byPage({ maxPageSize: 1000 })) {
        for (const blob of page.segment.blobItems) {
          const md5 = hexOf(blob.properties.contentMD5);
          found.push({ key: blob.name, size: blob.properties.contentLength ?? 0, etag: withoutQuotes(blob.properties.etag), ...(md5 !== undefined ? { md5 } : {}) });
        }
        if (found.length > limit) break;
      }
    } catch (error) {
      throw this.error(`the prefix ${JSON.stringify(prefix)} of ${this.label}`, sdkFailure(error, signal));
    }
    return found;
  }

  async head(key: string, signal: AbortSignal): Promise<StoredObject | undefined> {
    try {
      const properties = await this.container.getBlobClient(key).getProperties({ abortSignal: signal });
      const md5 = hexOf(properties.contentMD5);
      return { key, size: properties.contentLength ?? 0, etag: withoutQuotes(properties.etag), ...(md5 !== undefined ? { md5 } : {}) };
    } catch (error) {
      const failure = sdkFailure(error, signal);
      // A HEAD answer has no body, so a missing container shows as a 404 like a missing blob; listing tells.
      if (failure.kind === 'not-found' && failure.code !== 'ContainerNotFound') {
        if (!(await this.container.exists({ abortSignal: signal }).catch(() => true))) throw this.error(this.label, { kind: 'not-found', code: 'ContainerNotFound', status: 404 });
        return undefined;
      }
      throw this.error(`the object ${JSON.stringify(key)} of ${this.label}`, failure);
    }
  }

  async read(object: StoredObject, signal: AbortSignal): Promise<Readable> {
    try {
      const answer = await this.container.getBlobClient(object.key).download(0, undefined, { abortSignal: signal, conditions: { ifMatch: quoted(object.etag) } });
      return answer.readableStreamBody as Readable;
    } catch (error) {
      throw this.error(`the object ${JSON.stringify(object.key)} of ${this.label}`, sdkFailure(error, signal));
    }
  }

  private error(what: string, failure: SdkFailure): SluiceError {
    return objectStoreError(this.label, this.url, failure.code === 'ContainerNotFound' ? this.label : what, failure, CREDENTIALS_ADVICE);
  }
}
