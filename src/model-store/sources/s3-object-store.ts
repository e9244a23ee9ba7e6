import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { SluiceError } from '../../sdk/errors/index.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';
import { isNetworkCode, kindOfStatus, objectStoreError, type ObjectStoreFailureKind, type SdkFailure } from './object-store-errors.js';
import type { ObjectStore, StoredObject } from './object-store.js';

/** Attempts per S3 call, the SDK's standard retry strategy (exponential backoff with jitter) between them. */
export const S3_MAX_ATTEMPTS = 5;

const CREDENTIALS_ADVICE =
  'check the credentials Sluice runs with (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, web identity or the instance role)';

const DENIED = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken', 'TokenRefreshRequired', 'CredentialsProviderError', 'AllAccessDisabled']);
const NOT_FOUND = new Set(['NoSuchBucket', 'NoSuchKey', 'NotFound']);
const UNAVAILABLE = new Set(['SlowDown', 'ServiceUnavailable', 'InternalError', 'RequestTimeout', 'ThrottlingException', 'TimeoutError']);

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** The safe facts of an SDK error: its name or Node code, and its HTTP status. */
function sdkFailure(error: unknown, signal: AbortSignal): SdkFailure {
  const name = field(error, 'name');
  const code = nodeErrorCode(error) ?? (typeof name === 'string' ? name : 'Error');
  const status = field(field(error, '$metadata'), 'httpStatusCode');
  const httpStatus = typeof status === 'number' ? status : undefined;
  let kind: ObjectStoreFailureKind;
  if (signal.aborted) kind = 'timeout';
  else if (DENIED.has(code)) kind = 'denied';
  else if (NOT_FOUND.has(code)) kind = 'not-found';
  else if (code === 'PreconditionFailed') kind = 'changed';
  else if (UNAVAILABLE.has(code) || isNetworkCode(code)) kind = 'unavailable';
  else kind = kindOfStatus(httpStatus);
  return { kind, code, ...(httpStatus !== undefined ? { status: httpStatus } : {}) };
}

function withoutQuotes(etag: string | undefined): string {
  return (etag ?? '').replace(/^W\//, '').replace(/^"|"$/g, '');
}

/** A single-part upload's ETag is the MD5 of the content; a multipart one (`<md5>-<parts>`) is not. */
function md5OfEtag(etag: string): string | undefined {
  return /^[0-9a-f]{32}$/i.test(etag) ? etag.toLowerCase() : undefined;
}

/**
 * The S3 client for the environment Sluice runs in: the SDK's standard credential chain (environment
 * variables, shared config and credentials files with `AWS_PROFILE`, web identity, container and instance
 * roles) and region (`AWS_REGION`, the profile). `AWS_ENDPOINT_URL_S3` (or `AWS_ENDPOINT_URL`) points it at
 * an S3-compatible store, addressed path-style; such stores ignore the region, which defaults to us-east-1
 * there.
 */
export function s3ClientFromEnvironment(env: NodeJS.ProcessEnv = process.env): S3Client {
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const config: S3ClientConfig = {
    maxAttempts: S3_MAX_ATTEMPTS,
    ...(endpoint !== undefined && endpoint !== '' ? { endpoint, forcePathStyle: true, region: region ?? 'us-east-1' } : {}),
    ...(region !== undefined && region !== '' ? { region } : {}),
  };
  return new S3Client(config);
}

/** {@link ObjectStore} over one S3 bucket through the AWS SDK v3. */
export class S3ObjectStore implements ObjectStore {
  readonly label: string;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly url: string,
  ) {
    this.label = `s3 bucket ${JSON.stringify(bucket)}`;
  }

  async list(prefix: string, limit: number, signal: AbortSignal): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.call(`the prefix ${JSON.stringify(prefix)} of ${this.label}`, signal, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }), { abortSignal: signal }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key === undefined) continue;
        const etag = withoutQuotes(item.ETag);
        const md5 = md5OfEtag(etag);
        found.push({ key: item.Key, size: item.Size ?? 0, etag, ...(md5 !== undefined ? { md5 } : {}) });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined && found.length <= limit);
    return found;
  }

  async head(key: string, signal: AbortSignal): Promise<StoredObject | undefined> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: signal });
      const etag = withoutQuotes(answer.ETag);
      const md5 = md5OfEtag(etag);
      return { key, size: answer.ContentLength ?? 0, etag, ...(md5 !== undefined ? { md5 } : {}) };
    } catch (error) {
      const failure = sdkFailure(error, signal);
      // A missing key is an answer here; a missing bucket is not.
      if (failure.kind === 'not-found' && failure.code !== 'NoSuchBucket') return undefined;
      throw this.error(`the object ${JSON.stringify(key)} of ${this.label}`, failure);
    }
  }

  async read(object: StoredObject, signal: AbortSignal): Promise<Readable> {
    const answer = await this.call(`the object ${JSON.stringify(object.key)} of ${this.label}`, signal, () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: object.key, IfMatch: `"${object.etag}"` }), { abortSignal: signal }),
    );
    return answer.Body as Readable;
  }

  private async call<T>(what: string, signal: AbortSignal, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw this.error(what, sdkFailure(error, signal));
    }
  }

  private error(what: string, failure: SdkFailure): SluiceError {
    return objectStoreError(this.label, this.url, failure.code === 'NoSuchBucket' ? this.label : what, failure, CREDENTIALS_ADVICE);
  }
}
