import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { makeTempDir } from './temp-dir.js';

/** The account s3rver knows; any other access key id is refused with InvalidAccessKeyId. */
export const S3RVER_KEY = 'S3RVER';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** An S3-compatible store (s3rver) on a free loopback port, its objects in a temp dir. */
export interface LoopbackS3 {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  /** The variables that point the AWS SDK at it with valid credentials. */
  readonly env: Readonly<Record<string, string>>;
  createBucket(bucket: string): Promise<void>;
  put(bucket: string, key: string, body: Uint8Array | string): Promise<void>;
  /** The file s3rver keeps an object's content in (to damage it behind the store's back). */
  contentFile(bucket: string, key: string): string;
  close(): Promise<void>;
}

/**
 * The variables every S3 test sets: the endpoint and credentials, and no shared config, credentials file or
 * instance metadata, so that nothing on the machine running the tests takes part.
 */
export function s3Environment(endpoint: string, accessKeyId = S3RVER_KEY, secretAccessKey = S3RVER_KEY): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_REGION: 'us-east-1',
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
}

/** Sets `vars` in `process.env` and answers a function that puts back what was there. */
export function setEnvironment(vars: Readonly<Record<string, string>>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) Reflect.deleteProperty(process.env, key);
      else process.env[key] = value;
    }
  };
}

/** Starts s3rver on loopback. */
export async function startLoopbackS3(): Promise<LoopbackS3> {
  const temp = await makeTempDir('sluice-s3-');
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: temp.dir });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    // s3rver predates the SDK's default request checksums (aws-chunked bodies).
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    env: s3Environment(endpoint),
    createBucket: async (bucket) => {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    },
    put: async (bucket, key, body) => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    },
    contentFile: (bucket, key) => join(temp.dir, bucket, `${key}._S3rver_object`),
    close: async () => {
      client.destroy();
      await server.close();
      await temp.cleanup();
    },
  };
}
