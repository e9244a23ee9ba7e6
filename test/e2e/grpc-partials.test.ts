import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client, ClientDuplexStream, ClientReadableStream } from '@grpc/grpc-js';
import { grpcClient, metadataOf } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';
import { STREAMING_HANDLER, type StreamBody, type StreamEnd } from '../support/handlers/streaming-handler.js';
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

/** `$request.tags ──▶ inner (workflow tags) ──▶ tags`: a sub-workflow whose nodes are told by their path. */
const WRAP_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: wrap-tags, version: "1" }
inputs:
  tags: { type: list }
nodes:
  inner: { workflow: tags, inputs: { tags: $request.tags } }
outputs:
  tags: inner.tags
`;

const TAG_HANDLER: NodeHandler = {
  name: 'test/tag',
  inputs: ['tag'],
  outputs: { tag: {} },
  run: (inputs) => Promise.resolve({ tag: inputs['tag'] }),
};

interface Prediction {
  prediction: Buffer;
  sequenceId?: string;
  status?: { code: number; message: string } | null;
}

interface StreamResponse {
  error_message: string;
  infer_response: { id: string; model_name: string; outputs: unknown[]; parameters: Record<string, { bool_param?: boolean; string_param?: string }> };
}

function streamRequest(body: StreamBody, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model_name: 'streamer', input: { data: Buffer.from(JSON.stringify(body)) }, ...extra };
}

/** Calls `name` of `client` (a method the generated client has, which its type does not name). */
function invoke(client: Client, name: string, ...args: unknown[]): unknown {
  const found = (client as unknown as Record<string, unknown>)[name];
  if (typeof found !== 'function') throw new Error(`no ${name}`);
  return (found as (...args: unknown[]) => unknown).apply(client, args);
}

function collect<T>(stream: ClientReadableStream<T> | ClientDuplexStream<unknown, T>): Promise<T[]> {
  const messages: T[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (message: T) => messages.push(message));
    stream.on('error', reject);
    stream.on('end', () => {
      resolve(messages);
    });
  });
}

function json(message: Prediction): unknown {
  return JSON.parse(message.prediction.toString('utf8'));
}

async function untilExists(file: string): Promise<void> {
  while (!existsSync(file)) await sleep(20);
}

async function endOf(file: string): Promise<StreamEnd> {
  await untilExists(file);
  return JSON.parse(readFileSync(file, 'utf8')) as StreamEnd;
}

describe('gRPC streaming of a handler’s intermediate answers', () => {
  let t: TestServer;
  let torchserve: Client;
  let oip: Client;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      handlers: [STREAMING_HANDLER],
      nodeHandlers: [TAG_HANDLER],
      prepare: async (store, dir) => {
        await addStoreModel(store, 'streamer', (modelDir) => writeIdentityModel(modelDir, 'FP32'), { name: 'streamer', version: '1', handler: 'test/stream' });
        await writeWorkflowFile(dir, 'tags.yaml', TAGS_WORKFLOW);
        await writeWorkflowFile(dir, 'wrap-tags.yaml', WRAP_WORKFLOW);
      },
    });
    torchserve = grpcClient('torchserveInference', t.grpcInference);
    oip = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    torchserve.close();
    oip.close();
    await t.close();
  });

  it('StreamPredictions sends one message per intermediate answer, then the answer', async () => {
    const messages = await collect(invoke(torchserve, 'StreamPredictions', streamRequest({ parts: 3 })) as ClientReadableStream<Prediction>);
    expect(messages.map(json)).toEqual([{ part: 0 }, { part: 1 }, { part: 2 }, { parts: 3 }]);
  });

  it('StreamPredictions2 answers each request of the stream in order, its intermediate answers first, every message with its sequenceId', async () => {
    const call = invoke(torchserve, 'StreamPredictions2') as ClientDuplexStream<unknown, Prediction>;
    const done = collect(call);
    call.write(streamRequest({ parts: 2 }, { sequenceId: 'first' }));
    call.write(streamRequest({ parts: 1 }, { sequenceId: 'second' }));
    call.end();
    const messages = await done;
    expect(messages.map((message) => [message.sequenceId, json(message)])).toEqual([
      ['first', { part: 0 }],
      ['first', { part: 1 }],
      ['first', { parts: 2 }],
      ['second', { part: 0 }],
      ['second', { parts: 1 }],
    ]);
  });

  it('StreamPredictions2 answers a request that fails with its status and goes on with the next', async () => {
    const call = invoke(torchserve, 'StreamPredictions2') as ClientDuplexStream<unknown, Prediction>;
    const done = collect(call);
    call.write({ model_name: 'nobody', input: { data: Buffer.from('{}') }, sequenceId: 'lost' });
    call.write(streamRequest({ parts: 3, failAfter: 1 }, { sequenceId: 'failing' }));
    call.write(streamRequest({ parts: 0 }, { sequenceId: 'last' }));
    call.end();
    const messages = await done;
    expect(messages.map((message) => ({ sequenceId: message.sequenceId, bytes: message.prediction.byteLength > 0 ? json(message) : null, status: message.status ?? null }))).toEqual([
      { sequenceId: 'lost', bytes: null, status: expect.objectContaining({ code: 5, message: expect.stringContaining('`nobody` is not registered') as unknown }) as unknown },
      { sequenceId: 'failing', bytes: { part: 0 }, status: null },
      { sequenceId: 'failing', bytes: null, status: expect.objectContaining({ code: 3, message: 'failing on purpose after 1 parts' }) as unknown },
      { sequenceId: 'last', bytes: { parts: 0 }, status: null },
    ]);
  });

  it('StreamPredictions2 sends a workflow’s per-element progress before its answer', async () => {
    const call = invoke(torchserve, 'StreamPredictions2') as ClientDuplexStream<unknown, Prediction>;
    const done = collect(call);
    call.write({ model_name: 'tags', input: { data: Buffer.from('{"tags": ["a", "b"]}') } });
    call.end();
    const messages = (await done).map(json);
    expect(messages.slice(0, 2)).toEqual(expect.arrayContaining([0, 1].map((index) => ({ node: 'each', index, count: 2, outputs: { tag: ['a', 'b'][index] } }))));
    expect(messages.slice(2)).toEqual([['a', 'b']]);
  });

  it('a client that cancels StreamPredictions stops the handler: sendPartial rejects with SLUICE_CLIENT_GONE', async () => {
    const endFile = join(t.dir, 'grpc-end.json');
    const stream = invoke(torchserve, 'StreamPredictions', streamRequest({ parts: 100_000, padding: 1024, endFile })) as ClientReadableStream<Prediction>;
    stream.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      stream.once('data', () => {
        stream.cancel();
        resolve();
      });
    });
    const end = await endOf(endFile);
    expect(end).toMatchObject({ code: 'SLUICE_CLIENT_GONE', aborted: true });
    expect(end.sent).toBeLessThan(100_000);
  });

  it('a client that cancels StreamPredictions2 before the first intermediate answer aborts the handler’s signal', async () => {
    const [waitFile, endFile] = [join(t.dir, 'grpc-early-wait'), join(t.dir, 'grpc-early-end.json')];
    const call = invoke(torchserve, 'StreamPredictions2') as ClientDuplexStream<unknown, Prediction>;
    call.on('error', () => undefined);
    call.write(streamRequest({ parts: 3, waitFile, endFile }, { sequenceId: 'early' }));
    await untilExists(waitFile);
    call.cancel();
    expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
  });

  it('a client that cancels a unary Predictions call while the handler runs aborts the handler’s signal too', async () => {
    const [waitFile, endFile] = [join(t.dir, 'grpc-unary-wait'), join(t.dir, 'grpc-unary-end.json')];
    const call = invoke(torchserve, 'Predictions', streamRequest({ parts: 3, waitFile, endFile }), () => undefined) as { cancel(): void };
    await untilExists(waitFile);
    call.cancel();
    expect(await endOf(endFile)).toEqual({ sent: 0, aborted: true });
  });

  it('StreamPredictions sends every node of a workflow as it settles, sub-workflows’ nodes by their path, with x-sluice-progress: nested metadata', async () => {
    const stream = invoke(torchserve, 'StreamPredictions', { model_name: 'wrap-tags', input: { data: Buffer.from('{"tags": ["a", "b"]}') } }, metadataOf({ 'x-sluice-progress': 'nested' }));
    const messages = (await collect(stream as ClientReadableStream<Prediction>)).map(json);
    expect(messages).toEqual([
      { node: 'inner.each', status: 'ok', outputs: { tag: ['a', 'b'] } },
      { node: 'inner', status: 'ok', outputs: { tags: ['a', 'b'] } },
      ['a', 'b'],
    ]);
  });

  it('StreamPredictions2 sends a workflow’s forEach calls and then each node with x-sluice-progress: nodes metadata', async () => {
    const call = invoke(torchserve, 'StreamPredictions2', metadataOf({ 'x-sluice-progress': 'nodes' })) as ClientDuplexStream<unknown, Prediction>;
    const done = collect(call);
    call.write({ model_name: 'tags', input: { data: Buffer.from('{"tags": ["a", "b"]}') } });
    call.end();
    const messages = (await done).map(json);
    expect(messages.slice(0, 2)).toEqual(expect.arrayContaining([0, 1].map((index) => ({ node: 'each', index, count: 2, outputs: { tag: ['a', 'b'][index] } }))));
    expect(messages.slice(2)).toEqual([{ node: 'each', status: 'ok', outputs: { tag: ['a', 'b'] } }, ['a', 'b']]);
  });

  it('StreamPredictions refuses an x-sluice-progress value other than calls, nodes or nested with INVALID_ARGUMENT', async () => {
    const stream = invoke(torchserve, 'StreamPredictions', { model_name: 'tags', input: { data: Buffer.from('{"tags": ["a"]}') } }, metadataOf({ 'x-sluice-progress': 'all' }));
    await expect(collect(stream as ClientReadableStream<Prediction>)).rejects.toMatchObject({ code: 3, details: 'the x-sluice-progress metadata must be calls, nodes or nested (once), got "all"' });
  });

  it('ModelStreamInfer sends each node of a workflow as it settles, its status in sluice_status, with x-sluice-progress: nested metadata', async () => {
    const call = invoke(oip, 'ModelStreamInfer', metadataOf({ 'x-sluice-progress': 'nested' })) as ClientDuplexStream<unknown, StreamResponse>;
    const done = collect(call);
    call.write({ model_name: 'wrap-tags', id: 'nodes', inputs: [{ name: 'tags', datatype: 'BYTES', shape: [2], contents: { bytes_contents: [Buffer.from('a'), Buffer.from('b')] } }] });
    call.end();
    const responses = await done;
    expect(
      responses.map((r) => ({ node: r.infer_response.parameters['sluice_node']?.string_param, status: r.infer_response.parameters['sluice_status']?.string_param, final: r.infer_response.parameters['triton_final_response']?.bool_param })),
    ).toEqual([
      { node: 'inner.each', status: 'ok', final: false },
      { node: 'inner', status: 'ok', final: false },
      { node: undefined, status: undefined, final: true },
    ]);
  });

  it('ModelStreamInfer ends a request with an empty final answer when the client asks, as Triton’s clients of decoupled models do', async () => {
    const call = invoke(oip, 'ModelStreamInfer') as ClientDuplexStream<unknown, StreamResponse>;
    const done = collect(call);
    call.write({
      model_name: 'tags',
      id: 'decoupled',
      parameters: { triton_enable_empty_final_response: { bool_param: true } },
      inputs: [{ name: 'tags', datatype: 'BYTES', shape: [2], contents: { bytes_contents: [Buffer.from('a'), Buffer.from('b')] } }],
    });
    call.end();
    const responses = await done;
    expect(responses.map((r) => ({ id: r.infer_response.id, final: r.infer_response.parameters['triton_final_response']?.bool_param, outputs: r.infer_response.outputs.length }))).toEqual([
      { id: 'decoupled', final: false, outputs: 1 },
      { id: 'decoupled', final: false, outputs: 1 },
      { id: 'decoupled', final: false, outputs: 1 },
      { id: 'decoupled', final: true, outputs: 0 },
    ]);
    expect(responses.map((r) => r.error_message)).toEqual(['', '', '', '']);
  });
});
