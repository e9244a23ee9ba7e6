import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { readTorchServeConfig, type TorchServeConfig } from '../../../src/config/torchserve-properties.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { writeConfigFile } from './config-test-support.js';

describe('TorchServe config.properties', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  async function read(text: string, env: Readonly<Record<string, string>> = {}): Promise<TorchServeConfig> {
    await writeConfigFile(dir, text, 'config.properties');
    return readTorchServeConfig(join(dir, 'config.properties'), dir, env, 'config.properties');
  }

  async function refusal(text: string, env: Readonly<Record<string, string>> = {}): Promise<string> {
    let thrown: unknown;
    try {
      await read(text, env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SluiceError);
    expect((thrown as SluiceError).code).toBe('SLUICE_CONFIG_INVALID');
    return (thrown as SluiceError).message;
  }

  test('addresses become the host and port of each HTTP listener', async () => {
    const { layer } = await read(
      ['inference_address=http://0.0.0.0:8085', 'management_address: http://127.0.0.1:8086', 'metrics_address http://[::1]:8087', ''].join('\n'),
    );
    expect(layer).toMatchObject({
      inference: { host: '0.0.0.0', port: 8085 },
      management: { host: '127.0.0.1', port: 8086 },
      metrics: { host: '::1', port: 8087 },
    });
  });

  test('gRPC addresses and ports become the gRPC listeners', async () => {
    const { layer } = await read('grpc_inference_port=7075\ngrpc_management_port=7076\ngrpc_inference_address=0.0.0.0\n');
    expect(layer['grpc']).toEqual({ inference: { host: '0.0.0.0', port: 7075 }, management: { port: 7076 } });
  });

  test('model_store and workflow_store resolve against the working directory', async () => {
    const { layer } = await read('model_store=store\nworkflow_store=/abs/wf\n');
    expect(layer).toMatchObject({ modelStore: join(dir, 'store'), workflowStore: '/abs/wf' });
  });

  test('load_models: all, standalone, and a list of archives (names given before = are noted)', async () => {
    expect((await read('load_models=all\n')).layer['models']).toBe('all');
    expect((await read('load_models=standalone\n')).layer['models']).toEqual([]);
    const listed = await read('load_models=iris.mar, renamed=mlp.mar,iris.mar\n');
    expect(listed.layer['models']).toEqual(['iris.mar', 'mlp.mar']);
    expect(listed.warning).toContain('load_models name renamed=');
  });

  test('the models JSON becomes modelSettings in Sluice units', async () => {
    const models = {
      iris: { '1.0': { defaultVersion: true, marName: 'iris.mar', minWorkers: 1, maxWorkers: 4, batchSize: 8, maxBatchDelay: 50, responseTimeout: 30, startupTimeout: 90, jobQueueSize: 20 } },
    };
    const { layer, warning } = await read(`models=${JSON.stringify(models)}\n`);
    expect(layer['modelSettings']).toEqual({
      iris: { '1.0': { isDefault: true, minWorkers: 1, maxWorkers: 4, batchSize: 8, maxBatchDelayMs: 50, responseTimeoutMs: 30_000, loadTimeoutMs: 90_000, jobQueueSize: 20 } },
    });
    expect(warning).toContain('models iris.1.0.marName (not a setting Sluice has)');
  });

  test('queue size, default workers, response timeout, request size and allowed URLs are mapped', async () => {
    const { layer } = await read(
      ['job_queue_size=50', 'default_workers_per_model=2', 'default_response_timeout=30', 'max_request_size=10485760', 'allowed_urls=https://s3.amazonaws.com/.*,file:///models/.*', ''].join('\n'),
    );
    expect(layer).toMatchObject({
      jobQueueSize: 50,
      defaultWorkers: 2,
      responseTimeoutMs: 30_000,
      maxRequestSizeBytes: 10_485_760,
      allowedUrls: ['https://s3.amazonaws.com/.*', 'file:///models/.*'],
    });
  });

  test('token authorisation is on by default: token-auth on both APIs, key_file.json in TorchServe layout', async () => {
    const { layer } = await read('token_expiration_min=30\n');
    expect(layer['auth']).toEqual({ inference: 'token-auth', management: 'token-auth' });
    expect(layer['plugins']).toEqual([{ name: 'token-auth', config: { keyFile: join(dir, 'key_file.json'), keyFileLayout: 'torchserve', expirationMinutes: 30 } }]);
  });

  test('disable_token_authorization=true opens both APIs', async () => {
    const { layer } = await read('disable_token_authorization=true\n');
    expect(layer['auth']).toEqual({ inference: 'none', management: 'none' });
    expect(layer['plugins']).toBeUndefined();
  });

  test('keys Sluice cannot honour are listed in one warning, with why', async () => {
    const { warning } = await read('number_of_netty_threads=4\nvmargs=-Xmx4g\nenable_model_api=false\ninference_address=http://127.0.0.1:8080\n');
    expect(warning).toMatch(/^config\.properties: Sluice cannot honour these TorchServe settings, and goes on without them: /);
    expect(warning).toContain('number_of_netty_threads (Sluice has no Netty threads');
    expect(warning).toContain('vmargs (Sluice runs on Node.js');
    expect(warning).toContain('enable_model_api=false');
    expect(warning).not.toContain('inference_address');
  });

  test('a file with only mapped keys has no warning', async () => {
    expect((await read('# comment\n! another\n\ninference_address=http://127.0.0.1:8080\n')).warning).toBeUndefined();
  });

  test('a key set twice counts once, the last one, and is noted', async () => {
    const { layer, warning } = await read('job_queue_size=5\njob_queue_size=9\n');
    expect(layer['jobQueueSize']).toBe(9);
    expect(warning).toContain('job_queue_size (lines 1 and 2; the last one counts) (set twice)');
  });

  test('$$NAME$$ takes a value from the environment', async () => {
    expect((await read('model_store=$$STORE$$/models\n', { STORE: '/srv' })).layer['modelStore']).toBe('/srv/models');
  });

  test('with enable_envvars_config=true, TS_ variables override the file', async () => {
    const { layer } = await read('enable_envvars_config=true\njob_queue_size=5\n', { TS_JOB_QUEUE_SIZE: '77' });
    expect(layer['jobQueueSize']).toBe(77);
    expect((await read('job_queue_size=5\n', { TS_JOB_QUEUE_SIZE: '77' })).layer['jobQueueSize']).toBe(5);
  });

  describe('bad input', () => {
    test.each([
      ['an unknown key, with its line', '# c\ninference_address=http://127.0.0.1:8080\nfoo_bar=1\n', 'config.properties: unknown TorchServe key `foo_bar` (line 3);'],
      [
        'a misspelt key, with the likely one',
        'job_queue_sise=5\n',
        'config.properties: unknown TorchServe key `job_queue_sise` (line 1; did you mean `job_queue_size`?);',
      ],
      ['every unknown key at once', 'a=1\nb=2\n', 'unknown TorchServe keys `a` (line 1), `b` (line 2);'],
      ['a key with no value', 'model_store=x\ninference_address\n', 'config.properties: line 2: `inference_address` has no value; write inference_address=<value>, or remove the line'],
      ['a malformed address', 'inference_address=localhost:8080\n', 'config.properties: line 1: `inference_address` must be an address such as http://127.0.0.1:8080, got "localhost:8080"'],
      ['an address with a path', 'management_address=http://127.0.0.1:8081/x\n', 'line 1: `management_address` must be an address such as'],
      ['an HTTPS address', 'inference_address=https://0.0.0.0:8443\n', "line 1: `inference_address` asks for HTTPS (https://0.0.0.0:8443); Sluice's HTTP ports serve plain HTTP"],
      ['a port out of range', '\ngrpc_inference_port=70000\n', 'config.properties: line 2: `grpc_inference_port` must be an integer from 0 to 65535, got "70000"'],
      ['a number that is not one', 'job_queue_size=ten\n', 'line 1: `job_queue_size` must be an integer from 1 to 1000000, got "ten"'],
      ['a switch that is not true or false', 'disable_token_authorization=yes\n', 'line 1: `disable_token_authorization` must be true or false, got "yes"'],
      ['models that is not JSON', 'models={"iris":\n', 'line 1: `models` is not JSON ('],
      ['models that is not an object of versions', 'models={"iris": 1}\n', 'line 1: `models` must map model "iris" to its versions, each to its settings'],
      ['a model setting of the wrong type', 'models={"iris": {"1.0": {"batchSize": "8"}}}\n', 'line 1: `models` gives iris.1.0.batchSize "8"; it must be a whole number of at least 0'],
      ['a fractional worker count', 'models={"iris": {"1.0": {"minWorkers": 1.5}}}\n', '`models` gives iris.1.0.minWorkers 1.5; it must be a whole number'],
      ['an allowed URL that is no regular expression', 'allowed_urls=https://ok/.*,(\n', 'line 1: `allowed_urls` holds "(", which is not a regular expression'],
      ['an empty load_models entry', 'load_models=a.mar,x=\n', 'line 1: `load_models` has an empty entry in "a.mar,x="'],
      ['gRPC TLS without its files', 'enable_grpc_ssl=true\n', 'line 1: `enable_grpc_ssl` needs certificate_file and private_key_file'],
      ['an expiry that is no number of minutes', 'token_expiration_min=0\n', 'line 1: `token_expiration_min` must be a number of minutes above 0, got "0"'],
      ['an unknown metrics mode', 'metrics_mode=statsd\n', 'line 1: `metrics_mode` must be prometheus, log or legacy, got "statsd"'],
      ['an environment variable that is not set', 'model_store=$$NOPE$$\n', 'config.properties: line 1: `model_store` names the environment variable NOPE, which is not set'],
    ])('%s', async (_name, text, expected) => {
      expect(await refusal(text)).toContain(expected);
    });

    test('a malformed value from a TS_ variable names the variable', async () => {
      expect(await refusal('enable_envvars_config=true\n', { TS_JOB_QUEUE_SIZE: 'x' })).toContain('config.properties: TS_JOB_QUEUE_SIZE: `job_queue_size` must be an integer');
    });

    test('a file that cannot be read names the path', () => {
      let thrown: unknown;
      try {
        readTorchServeConfig(join(dir, 'missing.properties'), dir, {}, 'missing.properties');
      } catch (error) {
        thrown = error;
      }
      expect((thrown as SluiceError).message).toMatch(/^missing\.properties: cannot be read \(.*ENOENT.*\); check the path given to --ts-config$/);
    });
  });
});
