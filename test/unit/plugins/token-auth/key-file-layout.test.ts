import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { createTokenAuth, tokenAuthOptions } from '../../../../plugins/token-auth/index.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('token-auth key file layout', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  test("torchserve: TorchServe's key_file.json field names, the keys those the server accepts", async () => {
    const keyFile = join(dir, 'key_file.json');
    const auth = await createTokenAuth(tokenAuthOptions({ keyFile, keyFileLayout: 'torchserve', expirationMinutes: 60 }, dir), new RecordingLogger(), () => 0);
    const written = JSON.parse(await readFile(keyFile, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(Object.keys(written).sort()).toEqual(['API', 'inference', 'management']);
    expect(written['management']).toEqual({ key: auth.keys.current('management').key, 'expiration time': new Date(3_600_000).toISOString() });
    expect(written['inference']).toEqual({ key: auth.keys.current('inference').key, 'expiration time': new Date(3_600_000).toISOString() });
    expect(written['API']).toEqual({ key: auth.keys.current('api').key });
  });

  test('torchserve: a rotation rewrites the file in the same layout', async () => {
    const keyFile = join(dir, 'key_file.json');
    const auth = await createTokenAuth(tokenAuthOptions({ keyFile, keyFileLayout: 'torchserve' }, dir), new RecordingLogger());
    const rotated = await auth.keys.rotate('inference');
    const written = JSON.parse(await readFile(keyFile, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(written['inference']?.['key']).toBe(rotated.key);
    expect(Object.keys(written).sort()).toEqual(['API', 'inference', 'management']);
  });

  test("sluice (the default): Sluice's own fields", async () => {
    const keyFile = join(dir, 'keys.json');
    await createTokenAuth(tokenAuthOptions({ keyFile }, dir), new RecordingLogger());
    expect(Object.keys(JSON.parse(await readFile(keyFile, 'utf8')) as object).sort()).toEqual(['api', 'inference', 'management']);
  });

  test('an unknown layout is refused, naming the key', () => {
    expect(() => tokenAuthOptions({ keyFileLayout: 'java' }, dir)).toThrow('token-auth: `config.keyFileLayout` must be one of sluice, torchserve (got "java")');
  });
});
