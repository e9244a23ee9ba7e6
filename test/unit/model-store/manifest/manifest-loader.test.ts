import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { createSchemaValidator } from '../../../../src/json-schema/index.js';
import { REGISTRATION_LIMITS } from '../../../../src/api/models/registration-limits.js';
import { loadManifest } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { makeUnreadableDirectory } from '../../../support/unreadable-directory.js';
import { IRIS_MANIFEST, writeIrisModel } from '../../../support/model-fixture.js';

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

async function modelWith(manifest: string): Promise<string> {
  return writeIrisModel(join(root, 'model'), manifest);
}

async function loadError(dir: string): Promise<{ code: string; message: string }> {
  try {
    await loadManifest(dir);
  } catch (error) {
    if (isSluiceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('loadManifest succeeded');
}

describe('loadManifest', () => {
  it('returns the manifest with absolute paths', async () => {
    const dir = await modelWith(IRIS_MANIFEST);
    const manifest = await loadManifest(dir);
    expect(manifest).toMatchObject({
      name: 'iris',
      version: '1.0',
      description: 'Iris species classifier',
      model: 'model.onnx',
      modelPath: join(dir, 'model.onnx'),
      labels: 'labels.txt',
      labelsPath: join(dir, 'labels.txt'),
      baseDir: dir,
      manifestPath: join(dir, 'model.yaml'),
      inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 4] }],
      outputs: [{ name: 'probabilities', datatype: 'FP32', shape: [-1, 3] }],
    });
  });

  it('applies every default to a minimal manifest', async () => {
    const dir = await modelWith('name: tiny\nversion: "1"\nmodel: model.onnx\n');
    const manifest = await loadManifest(dir);
    expect(manifest).toEqual({
      name: 'tiny',
      version: '1',
      runtime: 'onnx',
      model: 'model.onnx',
      modelPath: join(dir, 'model.onnx'),
      handler: 'passthrough',
      handlerOptions: {},
      batching: {
        maxBatchSize: 1,
        maxBatchDelayMs: 0,
        preferredBatchSizes: [],
        priorityLevels: 1,
        defaultPriority: 1,
        queuePolicy: 'reject',
        preserveOrdering: false,
      },
      declaredBatching: {},
      workers: {
        min: 1,
        max: 1,
        autoscale: { enabled: false, intervalMs: 1000, scaleUpQueueMs: 50, scaleUpAfter: 3, scaleDownIdleMs: 30000, cooldownMs: 5000 },
      },
      executor: 'cpu',
      executorOptions: {},
      device: 'cpu',
      runtimeOptions: {},
      baseDir: dir,
      manifestPath: join(dir, 'model.yaml'),
    });
  });

  it('keeps sub-millisecond batch delays', async () => {
    const manifest = await loadManifest(await modelWith(IRIS_MANIFEST));
    expect(manifest.batching.maxBatchDelayMs).toBe(0.5);
  });

  it('defaults workers.max to workers.min', async () => {
    const manifest = await loadManifest(await modelWith('name: m\nversion: "1"\nmodel: model.onnx\nworkers:\n  min: 3\n'));
    expect(manifest.workers).toMatchObject({ min: 3, max: 3 });
  });

  it('keeps workers.autoscale.enabled as the manifest declares it', async () => {
    const manifest = await loadManifest(await modelWith('name: m\nversion: "1"\nmodel: model.onnx\nworkers:\n  autoscale:\n    enabled: false\n'));
    expect(manifest.declaredAutoscaleEnabled).toBe(false);
  });

  it('defaults workers.max to 1 when workers.min is 0', async () => {
    const manifest = await loadManifest(await modelWith('name: m\nversion: "1"\nmodel: model.onnx\nworkers:\n  min: 0\n'));
    expect(manifest.workers).toMatchObject({ min: 0, max: 1 });
  });

  it('carries runtime options and a numbered GPU device', async () => {
    const manifest = await loadManifest(
      await modelWith(
        'name: m\nversion: "1"\nmodel: model.onnx\ndevice: gpu:1\nruntimeOptions:\n  intraOpNumThreads: 2\n  executionMode: parallel\n  executionProviders: [cuda, cpu]\n',
      ),
    );
    expect([manifest.device, manifest.runtimeOptions]).toEqual([
      'gpu:1',
      { intraOpNumThreads: 2, executionMode: 'parallel', executionProviders: ['cuda', 'cpu'] },
    ]);
  });

  it('carries the handler options as written', async () => {
    const manifest = await loadManifest(
      await modelWith('name: m\nversion: "1"\nmodel: model.onnx\nhandler: text-classifier\nhandlerOptions:\n  tokenizer: tok/tokenizer.json\n  topK: 2\n'),
    );
    expect(manifest.handlerOptions).toEqual({ tokenizer: 'tok/tokenizer.json', topK: 2 });
  });

  it('returns a frozen manifest', async () => {
    const manifest = await loadManifest(await modelWith(IRIS_MANIFEST));
    expect([Object.isFrozen(manifest), Object.isFrozen(manifest.batching), Object.isFrozen(manifest.inputs)]).toEqual([true, true, true]);
  });

  it('accepts a model file in a subdirectory', async () => {
    const dir = await modelWith('name: m\nversion: "1"\nmodel: weights/model.onnx\n');
    await mkdir(join(dir, 'weights'));
    await writeFile(join(dir, 'weights', 'model.onnx'), 'x');
    expect((await loadManifest(dir)).modelPath).toBe(join(dir, 'weights', 'model.onnx'));
  });

  it('accepts a symbolic link that stays inside the directory', async () => {
    const dir = await modelWith('name: m\nversion: "1"\nmodel: current.onnx\n');
    await symlink('model.onnx', join(dir, 'current.onnx'));
    expect((await loadManifest(dir)).modelPath).toBe(join(dir, 'current.onnx'));
  });

  it('reports a missing model.yaml as not found', async () => {
    await mkdir(join(root, 'empty'));
    expect(await loadError(join(root, 'empty'))).toEqual({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message: `${join(root, 'empty', 'model.yaml')}: not found; every model directory needs a model.yaml with at least name, version and model`,
    });
  });

  it('reports a missing directory as not found', async () => {
    expect(await loadError(join(root, 'nope'))).toEqual({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message: `${join(root, 'nope')}: no such model directory; give the directory that holds model.yaml`,
    });
  });

  it('reports a model directory it may not read as a load failure naming the manifest, not a bare system error', async () => {
    const dir = join(root, 'locked');
    const restore = await makeUnreadableDirectory(dir);
    try {
      const manifest = join(dir, 'model.yaml');
      expect(await loadError(dir)).toEqual({
        code: 'SLUICE_MODEL_LOAD_FAILED',
        message: expect.stringMatching(
          new RegExp(`^${manifest}: cannot be read \\(EACCES: permission denied, [a-z]+ '[^']+'\\); make the model directory and its files readable by the user Sluice runs as$`),
        ) as unknown,
      });
    } finally {
      await restore();
    }
  });

  it('refuses a model.yaml that is not UTF-8, naming the line, instead of reading replacement characters', async () => {
    const dir = await modelWith('');
    const bytes = Buffer.concat([Buffer.from('name: m\nversion: "1"\nmodel: model.onnx\ndescription: "caf'), Buffer.from([0xe9]), Buffer.from('"\n')]);
    await writeFile(join(dir, 'model.yaml'), bytes);
    expect(await loadError(dir)).toEqual({
      code: 'SLUICE_MANIFEST_INVALID',
      message: `${join(dir, 'model.yaml')}: is not valid UTF-8 text (line 4); save it as UTF-8`,
    });
  });

  it('refuses a model file reached through a link out of the directory', async () => {
    const dir = await modelWith('name: m\nversion: "1"\nmodel: stolen.onnx\n');
    await writeFile(join(root, 'outside.onnx'), 'x');
    await symlink(join(root, 'outside.onnx'), join(dir, 'stolen.onnx'));
    expect(await loadError(dir)).toEqual({
      code: 'SLUICE_MANIFEST_INVALID',
      message: `${join(dir, 'model.yaml')}: \`model\` ("stolen.onnx") leads outside the model directory through a symbolic link; copy the file into the model directory`,
    });
  });

  it('refuses a model.yaml that is a link out of the directory', async () => {
    const dir = join(root, 'model');
    await mkdir(dir);
    await writeFile(join(root, 'elsewhere.yaml'), 'name: m\nversion: "1"\nmodel: model.onnx\n');
    await symlink(join(root, 'elsewhere.yaml'), join(dir, 'model.yaml'));
    expect(await loadError(dir)).toEqual({
      code: 'SLUICE_MANIFEST_INVALID',
      message: `${join(dir, 'model.yaml')}: leads outside the model directory through a symbolic link; copy the file into the model directory`,
    });
  });

  const base = 'name: m\nversion: "1"\nmodel: model.onnx\n';
  const corpus: ReadonlyArray<readonly [string, string, string]> = [
    ['empty file', '', 'is not valid YAML: expected a document, but the input is empty; fix the syntax (anchors and aliases are not supported)'],
    ['broken YAML', 'name: [m\n', 'is not valid YAML: deficient indentation (line 2, column 1); fix the syntax (anchors and aliases are not supported)'],
    ['aliases', 'name: &n m\nversion: *n\nmodel: model.onnx\n', 'is not valid YAML: aliases exceeded maxAliases (0) (line 2, column 11); fix the syntax (anchors and aliases are not supported)'],
    ['a list at the top', '- name\n', '`(top level)` must be object (got a list)'],
    ['missing name', 'version: "1"\nmodel: model.onnx\n', '`name` is required'],
    ['numeric version', 'name: m\nversion: 1.0\nmodel: model.onnx\n', '`version` must be a string; quote it in YAML (for example version: "1.0") so that 1.0 is not read as the number 1'],
    [
      'the version "all", which the management APIs read as every version',
      'name: m\nversion: all\nmodel: model.onnx\n',
      '`version` must not be "all": the management APIs read "all" as every version of a model (GET /models/<name>/all); choose another version',
    ],
    ['bad name', 'name: ../m\nversion: "1"\nmodel: model.onnx\n', '`name` must match pattern "^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$" (got "../m")'],
    ['unknown key', base + 'modle: x\n', '`modle` is not a known key (allowed here: name, version, description, runtime, model, handler, handlerOptions, envelope, labels, inputs, outputs, batching, workers, executor, executorOptions, device, responseTimeoutMs, jobQueueSize, runtimeOptions)'],
    ['unknown runtime', base + 'runtime: torch\n', '`runtime` must be one of "onnx" (got "torch")'],
    ['bad datatype', base + 'inputs:\n  - {name: x, datatype: FLOAT, shape: [1]}\n', '`inputs[0].datatype` must be one of "BOOL", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16", "FP32", "FP64", "BYTES", "BF16" (got "FLOAT")'],
    ['shape below -1', base + 'inputs:\n  - {name: x, datatype: FP32, shape: [-2]}\n', '`inputs[0].shape[0]` must be >= -1 (got -2)'],
    ['zero batch size', base + 'batching: {maxBatchSize: 0}\n', '`batching.maxBatchSize` must be >= 1 (got 0)'],
    ['negative delay', base + 'batching: {maxBatchDelayMs: -1}\n', '`batching.maxBatchDelayMs` must be >= 0 (got -1)'],
    ['preferred size above max', base + 'batching: {maxBatchSize: 4, preferredBatchSizes: [2, 8]}\n', '`batching.preferredBatchSizes` holds 8, more than `batching.maxBatchSize` (4); lower it or raise maxBatchSize'],
    ['max workers below min', base + 'workers: {min: 3, max: 2}\n', '`workers.max` (2) is less than `workers.min` (3); make max at least min'],
    ['default priority above the levels', base + 'batching: {priorityLevels: 2, defaultPriority: 3}\n', '`batching.defaultPriority` (3) is above `batching.priorityLevels` (2); use a level from 1 to 2'],
    ['bad device', base + 'device: tpu\n', '`device` must match pattern "^(cpu|gpu|gpu:(0|[1-9][0-9]{0,3}))$" (got "tpu")'],
    ['zero timeout', base + 'responseTimeoutMs: 0\n', '`responseTimeoutMs` must be >= 1 (got 0)'],
    ['too many threads', base + 'runtimeOptions: {intraOpNumThreads: 100000}\n', '`runtimeOptions.intraOpNumThreads` must be <= 1024 (got 100000)'],
    ['unknown runtime option', base + 'runtimeOptions: {threads: 2}\n', '`runtimeOptions.threads` is not a known key (allowed here: intraOpNumThreads, intraOpSpinning, interOpNumThreads, executionMode, graphOptimizationLevel, executionProviders)'],
    ['duplicate input', base + 'inputs:\n  - {name: x, datatype: FP32, shape: [1]}\n  - {name: x, datatype: FP32, shape: [1]}\n', '`inputs` names tensor "x" twice; give each tensor once'],
    ['absolute model path', 'name: m\nversion: "1"\nmodel: /etc/passwd\n', '`model` ("/etc/passwd") is an absolute path; only paths relative to the model directory are allowed'],
    ['escaping model path', 'name: m\nversion: "1"\nmodel: ../model.onnx\n', "`model` (\"../model.onnx\") contains a '..' segment; paths must stay inside the model directory"],
    ['drive letter', 'name: m\nversion: "1"\nmodel: "C:/model.onnx"\n', '`model` ("C:/model.onnx") is an absolute path; only paths relative to the model directory are allowed'],
    ['backslash', 'name: m\nversion: "1"\nmodel: "sub\\\\model.onnx"\n', "`model` (\"sub\\\\model.onnx\") contains a backslash; separate directories with '/'"],
    ['missing model file', 'name: m\nversion: "1"\nmodel: missing.onnx\n', '`model` ("missing.onnx") does not exist; put the file in the model directory or fix the path'],
    ['model is a directory', 'name: m\nversion: "1"\nmodel: "."\n', '`model` (".") is not a regular file; point it at a file'],
    ['missing labels file', base + 'labels: nope.txt\n', '`labels` ("nope.txt") does not exist; put the file in the model directory or fix the path'],
  ];

  it.each(corpus)('refuses %s', async (_title, manifest, problem) => {
    const dir = await modelWith(manifest);
    expect(await loadError(dir)).toEqual({ code: 'SLUICE_MANIFEST_INVALID', message: `${join(dir, 'model.yaml')}: ${problem}` });
  });

  it('refuses the version "all" by the schema too, so that editors validating model.yaml with it agree', () => {
    const validator = createSchemaValidator('model.schema.json', 'SLUICE_MANIFEST_INVALID');
    expect(() => validator.validate({ name: 'm', version: 'all', model: 'model.onnx' }, 'model.yaml')).toThrow('model.yaml: `version` must NOT be valid (got "all")');
  });

  it.each(['all-2', 'ALL', 'small'])('accepts the version %s, which is not "all"', async (version) => {
    const dir = await modelWith(`name: m\nversion: "${version}"\nmodel: model.onnx\n`);
    expect((await loadManifest(dir)).version).toBe(version);
  });

  it('lists every problem at once', async () => {
    const dir = await modelWith('name: m\nversion: "1"\nmodel: missing.onnx\nworkers: {min: 2, max: 1}\n');
    expect((await loadError(dir)).message).toBe(
      `${join(dir, 'model.yaml')}: \`workers.max\` (1) is less than \`workers.min\` (2); make max at least min; \`model\` ("missing.onnx") does not exist; put the file in the model directory or fix the path`,
    );
  });
});

describe('loadManifest bounds', () => {
  const base = 'name: m\nversion: "1"\nmodel: model.onnx\n';
  const { maxBatchSize, maxBatchDelayMs, maxResponseTimeoutS, maxWorkers } = REGISTRATION_LIMITS;
  const maxResponseTimeoutMs = maxResponseTimeoutS * 1000;
  const maxJobQueueSize = 1_000_000;
  /** One hour: longer than that is no autoscaling, and beyond 2^31 - 1 ms Node would fire the timer every millisecond. */
  const maxIntervalMs = 3_600_000;
  const above: ReadonlyArray<readonly [string, string, string]> = [
    ['a batch size', `batching: {maxBatchSize: ${maxBatchSize + 1}}`, `\`batching.maxBatchSize\` must be <= ${maxBatchSize} (got ${maxBatchSize + 1})`],
    ['a batch delay', `batching: {maxBatchDelayMs: ${maxBatchDelayMs + 1}}`, `\`batching.maxBatchDelayMs\` must be <= ${maxBatchDelayMs} (got ${maxBatchDelayMs + 1})`],
    ['a response timeout', `responseTimeoutMs: ${maxResponseTimeoutMs + 1}`, `\`responseTimeoutMs\` must be <= ${maxResponseTimeoutMs} (got ${maxResponseTimeoutMs + 1})`],
    ['a job queue', `jobQueueSize: ${maxJobQueueSize + 1}`, `\`jobQueueSize\` must be <= ${maxJobQueueSize} (got ${maxJobQueueSize + 1})`],
    ['a minimum of workers', `workers: {min: ${maxWorkers + 1}, max: ${maxWorkers}}`, `\`workers.min\` must be <= ${maxWorkers} (got ${maxWorkers + 1})`],
    ['a maximum of workers', `workers: {max: ${maxWorkers + 1}}`, `\`workers.max\` must be <= ${maxWorkers} (got ${maxWorkers + 1})`],
    ['an autoscale interval', `workers: {autoscale: {intervalMs: 1e12}}`, `\`workers.autoscale.intervalMs\` must be <= ${maxIntervalMs} (got 1000000000000)`],
  ];

  it.each(above)('refuses %s above what a registration may give', async (_title, line, problem) => {
    const dir = await modelWith(base + line + '\n');
    expect(await loadError(dir)).toEqual({ code: 'SLUICE_MANIFEST_INVALID', message: `${join(dir, 'model.yaml')}: ${problem}` });
  });

  it('accepts every setting at the bound a registration may give', async () => {
    const dir = await modelWith(
      base +
        `batching: {maxBatchSize: ${maxBatchSize}, maxBatchDelayMs: ${maxBatchDelayMs}, preferredBatchSizes: [${maxBatchSize}]}\n` +
        `workers: {min: ${maxWorkers}, max: ${maxWorkers}, autoscale: {intervalMs: ${maxIntervalMs}}}\n` +
        `responseTimeoutMs: ${maxResponseTimeoutMs}\njobQueueSize: ${maxJobQueueSize}\n`,
    );
    expect(await loadManifest(dir)).toMatchObject({
      batching: { maxBatchSize, maxBatchDelayMs, preferredBatchSizes: [maxBatchSize] },
      workers: { min: maxWorkers, max: maxWorkers, autoscale: { intervalMs: maxIntervalMs } },
      responseTimeoutMs: maxResponseTimeoutMs,
      jobQueueSize: maxJobQueueSize,
    });
  });
});

