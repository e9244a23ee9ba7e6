import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client, ClientDuplexStream, ClientReadableStream } from '@grpc/grpc-js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';
import { gatedTagHandler, NodeGate, silentHandler } from '../support/workflows/test-node-handlers.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';

/** `$request.tags ──▶ each (forEach: one call per tag) ──▶ tags` */
const TAGS_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tags, version: "1" }
inputs:
  tags: { type: list }
nodes:
  each: { handler: test/tag, forEach: $request.tags, inputs: { tag: $item } }
outputs:
  tags: each.tag
`;

/** `$request.tags ──▶ each (forEach) ──▶ last (waits at the gate) ──▶ tags` */
const HELD_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tags-held, version: "1" }
inputs:
  tags: { type: list }
nodes:
  each: { handler: test/tag, forEach: $request.tags, inputs: { tag: $item } }
  last: { handler: test/gated-tag, inputs: { tag: each.tag } }
outputs:
  tags: last.tag
`;

/**
 * `$request.tags ──▶ each (forEach: test/tag-with-extra) ──▶ tags`: each call also answers an `extra` output
 * that no progress message can carry, which the workflow's result leaves out.
 */
const EXTRA_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tags-extra, version: "1" }
inputs:
  tags: { type: list }
nodes:
  each: { handler: test/tag-with-extra, forEach: $request.tags, inputs: { tag: $item } }
outputs:
  tags: each.tag
`;

/** `$request.tags ──▶ each (forEach) ──▶ mute (never answers)`: a run that lasts until it is cancelled. */
const ENDLESS_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tags-endless, version: "1" }
inputs:
  tags: { type: list }
nodes:
  each: { handler: test/tag, forEach: $request.tags, inputs: { tag: $item } }
  mute: { handler: test/never-answers, when: "size(nodes.each.tag) > 0", timeoutMs: 3600000 }
outputs:
  text: mute.text
`;

/** `test/tag-with-extra`: answers its `tag` input, and an `extra` that claims to be a BYTES tensor but holds a number. */
const TAG_WITH_EXTRA_HANDLER: NodeHandler = {
  name: 'test/tag-with-extra',
  inputs: ['tag'],
  outputs: { tag: {}, extra: {} },
  run: (inputs) => Promise.resolve({ tag: inputs['tag'], extra: { datatype: 'BYTES', shape: [1], data: [7] } }),
};

/** `test/tag`: answers its `tag` input unchanged. */
const TAG_HANDLER: NodeHandler = {
  name: 'test/tag',
  inputs: ['tag'],
  outputs: { tag: {} },
  run: (inputs) => Promise.resolve({ tag: inputs['tag'] }),
};

interface InferResponse {
  id: string;
  model_name: string;
  parameters: Record<string, { bool_param?: boolean; string_param?: string; int64_param?: string }>;
  outputs: { name: string; datatype: string; contents: { bytes_contents: Buffer[] } | null }[];
}

interface StreamResponse {
  error_message: string;
  infer_response: InferResponse;
}

function tagsRequest(id: string, tags: readonly string[]): Record<string, unknown> {
  return {
    model_name: 'tags',
    id,
    inputs: [{ name: 'tags', datatype: 'BYTES', shape: [tags.length], contents: { bytes_contents: tags.map((tag) => Buffer.from(tag)) } }],
  };
}

function texts(response: InferResponse): string[] {
  return (response.outputs[0]?.contents?.bytes_contents ?? []).map((b) => b.toString('utf8'));
}

describe('gRPC streaming of intermediate results', () => {
  let t: TestServer;
  let oip: Client;
  let torchserve: Client;
  const gate = new NodeGate();
  const silent = silentHandler();

  beforeAll(async () => {
    t = await startTestServer({
      nodeHandlers: [gatedTagHandler(gate), TAG_HANDLER, TAG_WITH_EXTRA_HANDLER, silent],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'tags.yaml', TAGS_WORKFLOW);
        await writeWorkflowFile(dir, 'tags-held.yaml', HELD_WORKFLOW);
        await writeWorkflowFile(dir, 'tags-extra.yaml', EXTRA_WORKFLOW);
        await writeWorkflowFile(dir, 'tags-endless.yaml', ENDLESS_WORKFLOW);
      },
    });
    oip = grpcClient('oip', t.grpcInference);
    torchserve = grpcClient('torchserveInference', t.grpcInference);
  });
  afterAll(async () => {
    oip.close();
    torchserve.close();
    await t.close();
  });

  it('runs a workflow by name through ModelInfer', async () => {
    const response = await unary<InferResponse>(oip, 'ModelInfer', tagsRequest('one', ['a', 'b']));
    expect(response).toMatchObject({ model_name: 'tags', id: 'one' });
    expect(texts(response)).toEqual(['a', 'b']);
  });

  it('refuses ModelInfer asking a workflow for an output it does not have with INVALID_ARGUMENT and SLUICE_TENSOR_UNKNOWN_OUTPUT', async () => {
    const request = { ...tagsRequest('one', ['a']), outputs: [{ name: 'labels' }] };
    expect(await callError(unary(oip, 'ModelInfer', request))).toEqual({
      code: 3,
      details: 'workflow `tags` has no output `labels`; its outputs are: tags',
      errorCode: 'SLUICE_TENSOR_UNKNOWN_OUTPUT',
    });
  });

  it('refuses ModelInfer asking a workflow for an output twice with INVALID_ARGUMENT, as for a model', async () => {
    const request = { ...tagsRequest('one', ['a']), outputs: [{ name: 'tags' }, { name: 'tags' }] };
    expect(await callError(unary(oip, 'ModelInfer', request))).toEqual({
      code: 3,
      details: 'outputs[1]: output `tags` is asked for more than once; ask for each output once',
      errorCode: 'SLUICE_REQUEST_INVALID',
    });
  });

  it('refuses ModelInfer giving a workflow input twice with INVALID_ARGUMENT, instead of dropping one', async () => {
    const once = tagsRequest('one', ['a']) as { inputs: unknown[] };
    const twice = { ...once, inputs: [...once.inputs, ...(tagsRequest('one', ['b']) as { inputs: unknown[] }).inputs] };
    expect(await callError(unary(oip, 'ModelInfer', twice))).toEqual({
      code: 3,
      details: 'workflow `tags`: input `tags` is given more than once; send each input once',
      errorCode: 'SLUICE_WORKFLOW_INPUT_INVALID',
    });
  });

  it('refuses ModelInfer naming a workflow with a model_version other than its own with NOT_FOUND', async () => {
    expect(await callError(unary(oip, 'ModelInfer', { ...tagsRequest('one', ['a']), model_version: '2' }))).toEqual({
      code: 5,
      details: '`tags` is a workflow served at version `1` only (got version `2`); leave model_version empty',
      errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND',
    });
  });

  it('runs ModelInfer naming a workflow with its own model_version', async () => {
    const answer = await unary<{ model_name: string; model_version: string }>(oip, 'ModelInfer', { ...tagsRequest('one', ['a']), model_version: '1' });
    expect(answer).toMatchObject({ model_name: 'tags', model_version: '1' });
  });

  it('runs a workflow by name through Predictions', async () => {
    const response = await unary<{ prediction: Buffer }>(torchserve, 'Predictions', { model_name: 'tags', input: { data: Buffer.from('{"tags": ["a", "b"]}') } });
    expect(JSON.parse(response.prediction.toString('utf8'))).toEqual(['a', 'b']);
  });

  it('runs a workflow through Predictions at its own model_version, and refuses another with NOT_FOUND', async () => {
    const input = { data: Buffer.from('{"tags": ["a"]}') };
    const response = await unary<{ prediction: Buffer }>(torchserve, 'Predictions', { model_name: 'tags', model_version: '1', input });
    expect(JSON.parse(response.prediction.toString('utf8'))).toEqual(['a']);
    expect(await callError(unary(torchserve, 'Predictions', { model_name: 'tags', model_version: '2', input }))).toEqual({
      code: 5,
      details: '`tags` is a workflow served at version `1` only (got version `2`); leave model_version empty',
      errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND',
    });
  });

  it('StreamPredictions sends one message per forEach element, then the answer', async () => {
    const stream = (torchserve as unknown as Record<string, (r: unknown) => ClientReadableStream<{ prediction: Buffer }>>)['StreamPredictions']?.call(torchserve, {
      model_name: 'tags',
      input: { data: Buffer.from('{"tags": ["a", "b", "c"]}') },
    });
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      stream?.on('data', (m: { prediction: Buffer }) => messages.push(JSON.parse(m.prediction.toString('utf8'))));
      stream?.on('error', reject);
      stream?.on('end', resolve);
    });
    expect(messages.slice(0, 3)).toEqual(
      expect.arrayContaining([0, 1, 2].map((index) => ({ node: 'each', index, count: 3, outputs: { tag: ['a', 'b', 'c'][index] } }))),
    );
    expect(messages[3]).toEqual(['a', 'b', 'c']);
    expect(messages).toHaveLength(4);
  });

  it('StreamPredictions delivers an element’s result while the workflow is still running', async () => {
    gate.hold();
    const stream = (torchserve as unknown as Record<string, (r: unknown) => ClientReadableStream<{ prediction: Buffer }>>)['StreamPredictions']?.call(torchserve, {
      model_name: 'tags-held',
      input: { data: Buffer.from('{"tags": ["a"]}') },
    });
    const messages: unknown[] = [];
    const first = new Promise<void>((resolve) => stream?.once('data', () => { resolve(); }));
    stream?.on('data', (m: { prediction: Buffer }) => messages.push(JSON.parse(m.prediction.toString('utf8'))));
    const ended = new Promise<void>((resolve) => stream?.on('end', resolve));
    await first;
    // The last node is still held at the gate: the run has not ended, yet the element's result is here.
    expect(messages).toEqual([{ node: 'each', index: 0, count: 1, outputs: { tag: 'a' } }]);
    gate.release();
    await ended;
    expect(messages).toEqual([{ node: 'each', index: 0, count: 1, outputs: { tag: 'a' } }, ['a']]);
  });

  it('ModelStreamInfer answers every request of the stream, workflow progress first, errors without ending the stream', async () => {
    const call = (oip as unknown as Record<string, () => ClientDuplexStream<unknown, StreamResponse>>)['ModelStreamInfer']?.call(oip);
    if (call === undefined) throw new Error('no ModelStreamInfer');
    const responses: StreamResponse[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: StreamResponse) => responses.push(r));
      call.on('error', reject);
      call.on('end', resolve);
    });
    call.write(tagsRequest('w', ['x', 'y']));
    call.write({ model_name: 'nope', id: 'bad', inputs: [{ name: 'input', datatype: 'FP32', shape: [1], contents: { fp32_contents: [1] } }] });
    call.write({ model_name: 'iris', id: 'iris', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: [5.1, 3.5, 1.4, 0.2] } }] });
    call.end();
    await done;
    const byId = (id: string): StreamResponse[] => responses.filter((r) => r.infer_response.id === id);
    const workflow = byId('w');
    expect(workflow.map((r) => [r.infer_response.parameters['triton_final_response']?.bool_param, texts(r.infer_response)])).toEqual([
      [false, expect.any(Array)],
      [false, expect.any(Array)],
      [true, ['x', 'y']],
    ]);
    expect(workflow.slice(0, 2).map((r) => r.infer_response.parameters['sluice_node']?.string_param)).toEqual(['each', 'each']);
    expect(byId('bad')).toEqual([
      expect.objectContaining({
        error_message: 'model `nope` is not registered; registered models: iris, mlp',
      }),
    ]);
    expect(byId('bad')[0]?.infer_response.parameters['sluice_error_code']?.string_param).toBe('SLUICE_MODEL_NOT_FOUND');
    expect(byId('iris').map((r) => [r.error_message, r.infer_response.model_name])).toEqual([['', 'iris']]);
  });

  it('ModelStreamInfer answers a request the HTTP route would refuse with its error, and the stream goes on', async () => {
    const call = (oip as unknown as Record<string, () => ClientDuplexStream<unknown, StreamResponse>>)['ModelStreamInfer']?.call(oip);
    if (call === undefined) throw new Error('no ModelStreamInfer');
    const responses: StreamResponse[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: StreamResponse) => responses.push(r));
      call.on('error', reject);
      call.on('end', resolve);
    });
    const iris = (id: string, more: Record<string, unknown>): Record<string, unknown> => ({
      model_name: 'iris',
      id,
      inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: [5.1, 3.5, 1.4, 0.2] } }],
      ...more,
    });
    call.write(iris('twice', { outputs: [{ name: 'label' }, { name: 'label' }] }));
    call.write(iris('negative', { inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 4], contents: { fp32_contents: [5.1, 3.5, 1.4, 0.2] } }] }));
    call.write(iris('all', { outputs: [] }));
    call.end();
    await done;
    const answer = (id: string): [string, string | undefined, string[]] | undefined => {
      const response = responses.find((r) => r.infer_response.id === id);
      return response && [response.error_message, response.infer_response.parameters['sluice_error_code']?.string_param, response.infer_response.outputs.map((o) => o.name)];
    };
    expect([answer('twice'), answer('negative'), answer('all')]).toEqual([
      ['outputs[1]: output `label` is asked for more than once; ask for each output once', 'SLUICE_REQUEST_INVALID', []],
      ['inputs[0].shape[0] is -1; a shape is a list of non-negative integers, e.g. [1, 4]', 'SLUICE_REQUEST_INVALID', []],
      ['', undefined, ['probabilities', 'label']],
    ]);
  });

  it('StreamPredictions answers the workflow’s result when its progress cannot be sent', async () => {
    const stream = (torchserve as unknown as Record<string, (r: unknown) => ClientReadableStream<{ prediction: Buffer }>>)['StreamPredictions']?.call(torchserve, {
      model_name: 'tags-extra',
      input: { data: Buffer.from('{"tags": ["a", "b"]}') },
    });
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      stream?.on('data', (m: { prediction: Buffer }) => messages.push(JSON.parse(m.prediction.toString('utf8'))));
      stream?.on('error', reject);
      stream?.on('end', resolve);
    });
    expect(messages).toEqual([['a', 'b']]);
  });

  it('ModelStreamInfer answers the workflow’s result when its progress cannot be sent, and the stream goes on', async () => {
    const call = (oip as unknown as Record<string, () => ClientDuplexStream<unknown, StreamResponse>>)['ModelStreamInfer']?.call(oip);
    if (call === undefined) throw new Error('no ModelStreamInfer');
    const responses: StreamResponse[] = [];
    const done = new Promise<void>((resolve, reject) => {
      call.on('data', (r: StreamResponse) => responses.push(r));
      call.on('error', reject);
      call.on('end', resolve);
    });
    call.write({ ...tagsRequest('extra', ['x', 'y']), model_name: 'tags-extra' });
    call.write(tagsRequest('plain', ['z']));
    call.end();
    await done;
    const answers = (id: string): [string, boolean | undefined, string[]][] =>
      responses
        .filter((r) => r.infer_response.id === id)
        .map((r) => [r.error_message, r.infer_response.parameters['triton_final_response']?.bool_param, texts(r.infer_response)]);
    expect(answers('extra')).toEqual([['', true, ['x', 'y']]]);
    expect(answers('plain')).toEqual([
      ['', false, ['z']],
      ['', true, ['z']],
    ]);
  });

  it('StreamPredictions cancels the workflow’s running nodes when the client goes away after its progress', async () => {
    const stream = (torchserve as unknown as Record<string, (r: unknown) => ClientReadableStream<{ prediction: Buffer }>>)['StreamPredictions']?.call(torchserve, {
      model_name: 'tags-endless',
      input: { data: Buffer.from('{"tags": ["a"]}') },
    });
    if (stream === undefined) throw new Error('no StreamPredictions');
    stream.on('error', () => undefined); // the cancellation the test makes
    await new Promise<void>((resolve) => stream.once('data', () => { resolve(); }));
    while (silent.calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stream.cancel();
    await silent.untilCancelled(1);
    expect(silent.cancelled).toBe(1);
  });
});
