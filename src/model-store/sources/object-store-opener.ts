import type { S3Client } from '@aws-sdk/client-s3';
import type { BlobServiceClient } from '@azure/storage-blob';
import { AzureObjectStore, blobServiceFromEnvironment } from './azure-object-store.js';
import type { ObjectStore } from './object-store.js';
import type { ObjectStoreLocation } from './object-store-url.js';
import { S3ObjectStore, s3ClientFromEnvironment } from './s3-object-store.js';

/**
 * Opens the object store a location lies in, with the credentials of the environment Sluice runs in. One
 * SDK client per kind of store (per account for Azure) is made on first use and kept, so credentials are resolved (and refreshed
 * by the SDK) once, not per registration.
 */
export class ObjectStoreOpener {
  private s3?: S3Client;
  private readonly azure = new Map<string, BlobServiceClient>();

  /** `env` is read when the first source of a kind is opened, as the SDK's credential chain reads it. */
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  open(location: ObjectStoreLocation): ObjectStore {
    if (location.scheme === 'azure') {
      const account = location.account ?? '';
      let service = this.azure.get(account);
      if (service === undefined) {
        service = blobServiceFromEnvironment(account, this.env);
        this.azure.set(account, service);
      }
      return new AzureObjectStore(service, account, location.bucket, location.url);
    }
    this.s3 ??= s3ClientFromEnvironment(this.env);
    return new S3ObjectStore(this.s3, location.bucket, location.url);
  }
}
