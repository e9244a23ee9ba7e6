import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KeyFileContent } from '../../plugins/token-auth/index.js';
import { binaryRequestBody } from '../support/oip-binary.js';
import { DescribedApi, type OpenApiDoc } from '../support/openapi-conformance.js';
import { copyExampleWorkflows } from '../support/workflows/workflow-store.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

type Port = 'inference' | 'management' | 'metrics';
const PORTS: readonly Port[] = ['inference', 'management', 'metrics'];

const SETOSA = [5.1, 3.5, 1.4, 0.2];
/** One row of the mlp demo model's 64 inputs. */
const ROW = Array.from({ length: 64 }, (_, i) => i / 64);
const IRIS_INPUT = { name: 'input', datatype: 'FP32', shape: [1, 4], data: SETOSA };

/** A request to send: a JSON body, or bytes with their headers. */
interface Sent {
  readonly json?: unknown;
  readonly body?: Buffer | string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What came back, and how it compares with the port's description. */
interface Checked {
  readonly status: number;
  readonly body: unknown;
  /** The operation the description says the request reached. */
  readonly operationId: string | undefined;
  /** Why the answer is not one the description documents for its status and media type. */
  readonly problems: readonly string[];
  /** Why the JSON request body is not one the description documents (checked for JSON bodies only). */
  readonly requestProblems: readonly string[];
  readonly headers: Headers;
}

/** The answers each port's description promises, checked against a real server's. */
class ConformanceClient {
  readonly exercised = new Set<string>();
  private readonly described = new Map<Port, DescribedApi>();

  constructor(private readonly urls: Readonly<Record<Port, string>>) {}

  /** Reads each port's description (with `headers`, on a guarded server). */
  async load(headers: (port: Port) => Readonly<Record<string, string>> = () => ({})): Promise<void> {
    for (const port of PORTS) {
      const { status, body } = await requestJson(`${this.urls[port]}/api-description`, { headers: headers(port) });
      expect(status).toBe(200);
      this.described.set(port, new DescribedApi(body as OpenApiDoc));
    }
  }

  api(port: Port): DescribedApi {
    const api = this.described.get(port);
    if (api === undefined) throw new Error(`no description of the ${port} port`);
    return api;
  }

  /** Sends `method path` (with its query) to `port` and checks the answer against the port's description. */
  async check(port: Port, method: string, path: string, sent: Sent = {}): Promise<Checked> {
    const headers = new Headers(sent.headers);
    if (sent.json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
    const body = sent.json !== undefined ? JSON.stringify(sent.json) : sent.body;
    const res = await fetch(`${this.urls[port]}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type');
    const answer = /json/.test(contentType ?? '') ? (JSON.parse(bytes.toString('utf8')) as unknown) : bytes.toString(/^text\//.test(contentType ?? '') ? 'utf8' : 'latin1');
    const api = this.api(port);
    const bare = path.split('?')[0] ?? path;
    const operationId = api.operation(method, bare)?.operation.operationId;
    if (operationId !== undefined) this.exercised.add(`${port} ${operationId}`);
    return {
      status: res.status,
      body: answer,
      operationId,
      problems: api.answerProblems(method, bare, { status: res.status, contentType, body: answer }),
      requestProblems: sent.json !== undefined ? api.requestProblems(method, bare, headers.get('content-type') ?? '', sent.json) : [],
      headers: res.headers,
    };
  }
}

/** The part of a checked answer a test compares: its operation, status and every disagreement with the description. */
function verdict(checked: Checked): { operationId: string | undefined; status: number; problems: readonly string[]; requestProblems: readonly string[] } {
  return { operationId: checked.operationId, status: checked.status, problems: checked.problems, requestProblems: checked.requestProblems };
}

/** The verdict of an answer that conforms: the operation and status expected, nothing the description does not say. */
function conforming(operationId: string, status: number): ReturnType<typeof verdict> {
  return { operationId, status, problems: [], requestProblems: [] };
}

/** As {@link conforming}, for a refusal: the request body may break the description on purpose. */
function refused(operationId: string, status: number): Partial<ReturnType<typeof verdict>> {
  return { operationId, status, problems: [] };
}

/** A query parameter as a description documents it. */
interface QueryParameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema: Readonly<Record<string, unknown>>;
}

/** Values a query parameter's documented schema takes, and values one past what it takes. */
function boundaryValues(schema: Readonly<Record<string, unknown>>, api: DescribedApi): { accepted: string[]; refused: string[] } {
  const ref = schema['$ref'];
  if (typeof ref === 'string') return boundaryValues({ ...(api.document.components?.['schemas']?.[ref.split('/').pop() ?? ''] as Record<string, unknown>), ...schema, $ref: undefined }, api);
  const { type, minimum, maximum, pattern } = schema as { type?: string; minimum?: number; maximum?: number; pattern?: string };
  const values = { accepted: [] as string[], refused: [] as string[] };
  if (Array.isArray(schema['enum'])) return { accepted: schema['enum'].map(String), refused: ['sideways'] };
  if (type === 'boolean') return { accepted: ['true', 'false'], refused: ['yes'] };
  if (type === 'array') {
    const items = boundaryValues(schema['items'] as Record<string, unknown>, api);
    return { accepted: items.accepted, refused: [...items.refused, ...(schema['uniqueItems'] === true && items.accepted[0] !== undefined ? [`${items.accepted[0]},${items.accepted[0]}`] : [])] };
  }
  if (type === 'integer' || type === 'number') {
    if (minimum !== undefined) {
      values.accepted.push(String(minimum));
      values.refused.push(String(minimum - 1));
    }
    if (maximum !== undefined) {
      values.accepted.push(String(maximum));
      values.refused.push(String(maximum + 1));
    }
    values[type === 'integer' ? 'refused' : 'accepted'].push(`${minimum ?? 1}.5`);
  }
  if (pattern !== undefined) values.refused.push('-x');
  return values;
}

describe('answers of an open server, against the descriptions its ports serve', () => {
  let t: TestServer;
  let client: ConformanceClient;

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris', 'iris-quick', 'mlp'], prepare: (_store, dir) => copyExampleWorkflows(dir, ['iris-second-opinion.yaml']) });
    client = new ConformanceClient(t);
    await client.load();
  });
  afterAll(() => t.close());
  const api = (): DescribedApi => client.api('inference');

  it.each(PORTS)('the %s port’s description routes', async (port) => {
    expect(verdict(await client.check(port, 'OPTIONS', '/'))).toEqual(conforming('describeApiOptions', 200));
    expect(verdict(await client.check(port, 'GET', '/api-description'))).toEqual(conforming('describeApi', 200));
  });

  it('health: /ping, OIP liveness and readiness', async () => {
    expect(verdict(await client.check('inference', 'GET', '/ping'))).toEqual(conforming('ping', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/health/live'))).toEqual(conforming('oipServerLive', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/health/ready'))).toEqual(conforming('oipServerReady', 200));
  });

  it('TorchServe predictions: answers of the classifier and passthrough handlers and of an envelope, and refusals', async () => {
    // The documented answer also takes what other handlers answer, so the built-in handlers' are checked against their own shapes too.
    const classified = await client.check('inference', 'POST', '/predictions/iris', { json: SETOSA });
    expect({ ...verdict(classified), shape: api().componentProblems('Classification', classified.body) }).toEqual({ ...conforming('predict', 200), shape: [] });
    const batch = await client.check('inference', 'POST', '/predictions/iris/1.0', { json: { data: [SETOSA, SETOSA] } });
    expect({ ...verdict(batch), shape: (batch.body as unknown[]).flatMap((item) => api().componentProblems('Classification', item)) }).toEqual({ ...conforming('predictVersion', 200), shape: [] });
    const passed = await client.check('inference', 'POST', '/predictions/mlp', { json: { inputs: { input: [ROW] } } });
    expect({ ...verdict(passed), shape: api().componentProblems('OutputTensorData', passed.body) }).toEqual({ ...conforming('predict', 200), shape: [] });
    expect(verdict(await client.check('inference', 'POST', '/predictions/iris?envelope=json', { json: { instances: [SETOSA] } }))).toEqual(conforming('predict', 200));
    expect(verdict(await client.check('inference', 'POST', '/predictions/nope', { json: SETOSA }))).toEqual(conforming('predict', 404));
    expect(verdict(await client.check('inference', 'POST', '/predictions/iris', { body: '[1, 2', headers: { 'content-type': 'application/json' } }))).toMatchObject(refused('predict', 400));
    expect(verdict(await client.check('inference', 'POST', '/predictions/iris', { body: 'GIF89a', headers: { 'content-type': 'image/gif' } }))).toMatchObject(refused('predict', 415));
    expect(verdict(await client.check('inference', 'POST', '/predictions/iris/9.9', { json: SETOSA }))).toEqual(conforming('predictVersion', 404));
  });

  it('TorchServe predictions and workflow runs sent with PUT, as curl -T sends them', async () => {
    expect(verdict(await client.check('inference', 'PUT', '/predictions/iris', { json: SETOSA }))).toEqual(conforming('predictPut', 200));
    expect(verdict(await client.check('inference', 'PUT', '/predictions/iris/1.0', { json: SETOSA }))).toEqual(conforming('predictVersionPut', 200));
    expect(verdict(await client.check('inference', 'PUT', '/predictions/nope', { json: SETOSA }))).toEqual(conforming('predictPut', 404));
    expect(verdict(await client.check('inference', 'PUT', '/wfpredict/iris-second-opinion', { json: { measurements: [SETOSA] } }))).toEqual(conforming('runWorkflowPut', 200));
  });

  it('OIP infer: a JSON answer and a binary one, of the default and a given version, and refusals', async () => {
    expect(verdict(await client.check('inference', 'POST', '/v2/models/iris/infer', { json: { id: 'r-1', inputs: [IRIS_INPUT], outputs: [{ name: 'label' }] } }))).toEqual(
      conforming('oipInfer', 200),
    );
    expect(verdict(await client.check('inference', 'POST', '/v2/models/mlp/versions/1.0/infer', { json: { inputs: [{ name: 'input', datatype: 'FP32', shape: [2, 64], data: [ROW, ROW] }] } }))).toEqual(
      conforming('oipInferVersion', 200),
    );
    const header = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64], parameters: { binary_data_size: 256 } }], parameters: { binary_data_output: true } };
    expect(client.api('inference').componentProblems('OipInferRequest', header)).toEqual([]);
    const binary = binaryRequestBody(header, [new Uint8Array(new Float32Array(ROW).buffer)]);
    const answer = await client.check('inference', 'POST', '/v2/models/mlp/infer', {
      body: binary.body,
      headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(binary.headerLength) },
    });
    expect({ ...verdict(answer), contentType: answer.headers.get('content-type') }).toEqual({ ...conforming('oipInfer', 200), contentType: 'application/octet-stream' });
    const headerLength = Number(answer.headers.get('inference-header-content-length'));
    const answerHeader = JSON.parse(Buffer.from(answer.body as string, 'latin1').toString('utf8', 0, headerLength)) as unknown;
    expect(client.api('inference').componentProblems('OipInferResponse', answerHeader)).toEqual([]);
    expect(verdict(await client.check('inference', 'POST', '/v2/models/iris/infer', { json: { inputs: [{ ...IRIS_INPUT, datatype: 'INT32', data: [5, 3, 1, 0] }] } }))).toEqual(
      conforming('oipInfer', 400),
    );
    expect(verdict(await client.check('inference', 'POST', '/v2/models/iris/infer', { json: { inputs: [] } }))).toMatchObject(refused('oipInfer', 400));
    expect(verdict(await client.check('inference', 'POST', '/v2/models/nope/infer', { json: { inputs: [IRIS_INPUT] } }))).toEqual(conforming('oipInfer', 404));
    expect(verdict(await client.check('inference', 'POST', '/v2/models/iris/versions/9.9/infer', { json: { inputs: [IRIS_INPUT] } }))).toEqual(conforming('oipInferVersion', 404));
  });

  it('OIP metadata and readiness of models and versions, and of a model that is not registered', async () => {
    expect(verdict(await client.check('inference', 'GET', '/v2'))).toEqual(conforming('oipServerMetadata', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/iris'))).toEqual(conforming('oipModelMetadata', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/iris/versions/1.0'))).toEqual(conforming('oipModelVersionMetadata', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/iris/ready'))).toEqual(conforming('oipModelReady', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/iris/versions/1.0/ready'))).toEqual(conforming('oipModelVersionReady', 200));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/nope'))).toEqual(conforming('oipModelMetadata', 404));
    expect(verdict(await client.check('inference', 'GET', '/v2/models/iris/versions/9.9/ready'))).toEqual(conforming('oipModelVersionReady', 404));
  });

  it('KServe v1: status, predictions, and refusals', async () => {
    expect(verdict(await client.check('inference', 'GET', '/v1/models'))).toEqual(conforming('kserveV1ListModels', 200));
    expect(verdict(await client.check('inference', 'GET', '/v1/models/iris'))).toEqual(conforming('kserveV1ModelStatus', 200));
    expect(verdict(await client.check('inference', 'GET', '/v1/models/nope'))).toEqual(conforming('kserveV1ModelStatus', 404));
    const predicted = await client.check('inference', 'POST', '/v1/models/iris:predict', { json: { instances: [SETOSA, SETOSA] } });
    const predictions = (predicted.body as { predictions: unknown[] }).predictions;
    expect({ ...verdict(predicted), shape: predictions.flatMap((item) => api().componentProblems('Classification', item)) }).toEqual({ ...conforming('kserveV1Predict', 200), shape: [] });
    expect(verdict(await client.check('inference', 'POST', '/v1/models/mlp:predict', { json: { inputs: [ROW] } }))).toEqual(conforming('kserveV1Predict', 200));
    expect(verdict(await client.check('inference', 'POST', '/v1/models/iris:predict', { json: { instances: [] } }))).toMatchObject(refused('kserveV1Predict', 400));
    expect(verdict(await client.check('inference', 'POST', '/v1/models/iris:predict', { json: { instances: [[1, 2]] } }))).toEqual(conforming('kserveV1Predict', 400));
  });

  it('workflow runs, with and without debug, over /wfpredict and OIP, and refusals', async () => {
    const inputs = { measurements: [SETOSA] };
    expect(verdict(await client.check('inference', 'POST', '/wfpredict/iris-second-opinion', { json: inputs }))).toEqual(conforming('runWorkflow', 200));
    const debugged = await client.check('inference', 'POST', '/wfpredict/iris-second-opinion?debug=true', { json: inputs });
    expect({ ...verdict(debugged), shape: api().componentProblems('WorkflowDebugAnswer', debugged.body) }).toEqual({ ...conforming('runWorkflow', 200), shape: [] });
    expect(verdict(await client.check('inference', 'POST', '/v2/models/iris-second-opinion/infer', { json: { inputs: [{ ...IRIS_INPUT, name: 'measurements' }] } }))).toEqual(
      conforming('oipInfer', 200),
    );
    expect(verdict(await client.check('inference', 'POST', '/wfpredict/iris-second-opinion', { json: { size: [SETOSA] } }))).toEqual(conforming('runWorkflow', 400));
    expect(verdict(await client.check('inference', 'POST', '/wfpredict/nope', { json: inputs }))).toEqual(conforming('runWorkflow', 404));
  });

  it('model management: a registration, its description, scaling, default version and unregistration, and their refusals', async () => {
    const m = (method: string, path: string): Promise<Checked> => client.check('management', method, path);
    expect(verdict(await m('POST', '/models?url=mlp&model_name=mlp2&initial_workers=1&batch_size=8&preferred_batch_sizes=4,8&queue_policy=delay'))).toEqual(conforming('registerModel', 200));
    expect(verdict(await m('GET', '/models/mlp2'))).toEqual(conforming('describeModel', 200));
    expect(verdict(await m('GET', '/models/mlp2/all'))).toEqual(conforming('describeModelVersion', 200));
    expect(verdict(await m('PUT', '/models/mlp2?min_worker=1&max_worker=2&synchronous=true'))).toEqual(conforming('scaleModel', 200));
    expect(verdict(await m('PUT', '/models/mlp2/1.0?max_worker=1&synchronous=true'))).toEqual(conforming('scaleModelVersion', 200));
    expect(verdict(await m('PUT', '/models/mlp2?min_worker=1'))).toEqual(conforming('scaleModel', 202));
    expect(verdict(await m('PUT', '/models/mlp2/1.0/set-default'))).toEqual(conforming('setDefaultVersion', 200));
    expect(verdict(await m('DELETE', '/models/mlp2/1.0'))).toEqual(conforming('unregisterModelVersion', 200));
    expect(verdict(await m('POST', '/models?url=mlp&model_name=mlp2'))).toEqual(conforming('registerModel', 200));
    expect(verdict(await m('DELETE', '/models/mlp2'))).toEqual(conforming('unregisterModel', 200));
    // Loads in the background while the other tests run; nothing waits for it.
    expect(verdict(await m('POST', '/models?url=mlp&model_name=mlp3&synchronous=false'))).toEqual(conforming('registerModel', 202));

    expect(verdict(await m('POST', '/models'))).toEqual(conforming('registerModel', 400));
    expect(verdict(await m('POST', '/models?url=nope'))).toEqual(conforming('registerModel', 404));
    expect(verdict(await m('POST', '/models?url=iris'))).toEqual(conforming('registerModel', 409));
    expect(verdict(await m('POST', '/models?url=https://models.example.com/iris.sluice'))).toEqual(conforming('registerModel', 403));
    expect(verdict(await m('GET', '/models/nope'))).toEqual(conforming('describeModel', 404));
    expect(verdict(await m('GET', '/models/iris?verbose=true'))).toEqual(conforming('describeModel', 400));
    expect(verdict(await m('PUT', '/models/iris?min_worker=3&max_worker=2&synchronous=true'))).toEqual(conforming('scaleModel', 400));
    expect(verdict(await m('PUT', '/models/iris/9.9?min_worker=1&synchronous=true'))).toEqual(conforming('scaleModelVersion', 404));
    expect(verdict(await m('PUT', '/models/iris/9.9/set-default'))).toEqual(conforming('setDefaultVersion', 404));
    expect(verdict(await m('DELETE', '/models/nope'))).toEqual(conforming('unregisterModel', 404));
    expect(verdict(await m('DELETE', '/models/iris/1.0'))).toEqual(conforming('unregisterModelVersion', 409));
  });

  it('the model list, a page at a time, and a refused page size', async () => {
    const first = await client.check('management', 'GET', '/models?limit=1');
    expect({ ...verdict(first), next: (first.body as { nextPageToken?: string }).nextPageToken }).toEqual({ ...conforming('listModels', 200), next: '1' });
    expect(verdict(await client.check('management', 'GET', '/models?next_page_token=1'))).toEqual(conforming('listModels', 200));
    expect(verdict(await client.check('management', 'GET', '/models?limit=0'))).toEqual(conforming('listModels', 400));
  });

  it('workflow management: the list, a description, a registration and its unregistration, and refusals', async () => {
    const m = (method: string, path: string): Promise<Checked> => client.check('management', method, path);
    expect(verdict(await m('GET', '/workflows'))).toEqual(conforming('listWorkflows', 200));
    expect(verdict(await m('GET', '/workflows/iris-second-opinion'))).toEqual(conforming('describeWorkflow', 200));
    expect(verdict(await m('POST', '/workflows?url=iris-second-opinion.yaml&workflow_name=iris-copy'))).toEqual(conforming('registerWorkflow', 200));
    expect(verdict(await m('DELETE', '/workflows/iris-copy'))).toEqual(conforming('unregisterWorkflow', 200));
    expect(verdict(await m('GET', '/workflows/nope'))).toEqual(conforming('describeWorkflow', 404));
    expect(verdict(await m('POST', '/workflows'))).toEqual(conforming('registerWorkflow', 400));
    expect(verdict(await m('POST', '/workflows?url=nope.yaml'))).toEqual(conforming('registerWorkflow', 404));
    expect(verdict(await m('DELETE', '/workflows/nope'))).toEqual(conforming('unregisterWorkflow', 404));
  });

  it('metrics, all of them and by name', async () => {
    expect(verdict(await client.check('metrics', 'GET', '/metrics'))).toEqual(conforming('metrics', 200));
    expect(verdict(await client.check('metrics', 'GET', '/metrics?name[]=ts_inference_requests_total&name[]=sluice_batch_size'))).toEqual(conforming('metrics', 200));
  });

  it('management routes take each documented bound of their query parameters, and refuse what lies past it', async () => {
    const api = client.api('management');
    const mismatches: string[] = [];
    for (const [template, operations] of Object.entries(api.document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const query = (operation.parameters ?? []).filter((p): p is QueryParameter => (p as QueryParameter).in === 'query');
        const base = query.filter((p) => p.required === true).map((p) => `${p.name}=nope`);
        for (const parameter of query.filter((p) => p.required !== true)) {
          const { accepted, refused } = boundaryValues(parameter.schema, api);
          for (const [value, refuses] of [...accepted.map((v) => [v, false] as const), ...refused.map((v) => [v, true] as const)]) {
            const path = `${template.replace(/\{[^}]+\}/g, 'nope')}?${[...base, `${parameter.name}=${encodeURIComponent(value)}`].join('&')}`;
            const { status, body } = await client.check('management', method.toUpperCase(), path);
            const code = (body as { errorCode?: string }).errorCode;
            const wasRefused = status === 400 && code === 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' && String((body as { message?: string }).message).includes(parameter.name);
            if (wasRefused !== refuses) mismatches.push(`${method.toUpperCase()} ${path}: ${refuses ? 'taken' : 'refused'} (${status} ${String(code)})`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('exercised every operation the three ports document (the tests above, run in order)', () => {
    const documented = PORTS.flatMap((port) => client.api(port).operationIds().map((id) => `${port} ${id}`));
    expect(documented.filter((operation) => !client.exercised.has(operation))).toEqual([]);
  });
});

describe('answers of a server token-auth guards, against the descriptions its ports serve', () => {
  let t: TestServer;
  let client: ConformanceClient;
  let keys: KeyFileContent;
  const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], auth: { inference: 'token-auth', management: 'token-auth', metrics: 'token-auth' } });
    keys = JSON.parse(await readFile(join(t.dir, '.sluice', 'key_file.json'), 'utf8')) as KeyFileContent;
    client = new ConformanceClient(t);
    await client.load((port) => bearer(port === 'inference' ? keys.inference.key : keys.management.key));
  });
  afterAll(() => t.close());

  it.each(PORTS)('the %s port answers a request without a key 401, and one with the wrong key 403, as documented', async (port) => {
    const route = { inference: ['POST', '/predictions/iris', 'predict'], management: ['GET', '/models', 'listModels'], metrics: ['GET', '/metrics', 'metrics'] }[port];
    const [method = '', path = '', operationId = ''] = route;
    const json = method === 'POST' ? SETOSA : undefined;
    const missing = await client.check(port, method, path, { ...(json ? { json } : {}) });
    expect({ ...verdict(missing), challenge: missing.headers.get('www-authenticate') }).toEqual({ ...conforming(operationId, 401), challenge: 'Bearer realm="sluice"' });
    expect(verdict(await client.check(port, method, path, { ...(json ? { json } : {}), headers: bearer(keys.api.key) }))).toEqual(conforming(operationId, 403));
  });

  it('serves the open health routes without a key, and the others with the port’s key', async () => {
    expect(verdict(await client.check('inference', 'GET', '/ping'))).toEqual(conforming('ping', 200));
    expect(verdict(await client.check('inference', 'POST', '/predictions/iris', { json: SETOSA, headers: bearer(keys.inference.key) }))).toEqual(conforming('predict', 200));
    expect(verdict(await client.check('management', 'GET', '/models', { headers: bearer(keys.management.key) }))).toEqual(conforming('listModels', 200));
  });

  it('token-auth’s key rotation: a new key for the API key, and refusals', async () => {
    expect(verdict(await client.check('management', 'GET', '/token?type=inference', { headers: bearer(keys.api.key) }))).toEqual(conforming('rotateKey', 200));
    expect(verdict(await client.check('management', 'GET', '/token', { headers: bearer(keys.api.key) }))).toEqual(conforming('rotateKey', 400));
    expect(verdict(await client.check('management', 'GET', '/token?type=inference'))).toEqual(conforming('rotateKey', 401));
    expect(verdict(await client.check('management', 'GET', '/token?type=inference', { headers: bearer(keys.management.key) }))).toEqual(conforming('rotateKey', 403));
  });
});
