import { parentPort, threadId } from 'node:worker_threads';
import { isSluiceError, type ErrorCode } from '../../sdk/errors/index.js';
import { toModelInputDatatypes, type NumericTensorData, type Tensor } from '../../sdk/tensor/index.js';
import { reasonOf, runModelFile } from './model-load-error.js';
import type { OnnxLoadedModel } from './onnx-loaded-model.js';
import { OnnxRuntime } from './onnx-runtime.js';
import type { SessionThreadError, SessionThreadReply, SessionThreadRequest } from './session-thread-messages.js';

/*
 * A worker thread that owns one device's threaded ONNX Runtime sessions. onnxruntime-node computes a run
 * on the thread that calls it, so sessions here leave the server's event loop free while they compute,
 * and each device's thread computes while the others do. (WebGPU sessions must all stay on one thread:
 * see `webgpu-placement.ts`.)
 */
if (parentPort === null) throw new Error('the session thread runs as a worker thread only');
const port = parentPort;
const runtime = new OnnxRuntime();
const sessions = new Map<number, OnnxLoadedModel>();
let nextSession = 1;

function threadError(error: unknown, fallback: ErrorCode, what: string): SessionThreadError {
  if (isSluiceError(error)) return { code: error.code, message: error.message, details: error.details };
  const reason = reasonOf(error);
  return { code: fallback, message: `${what}: ${reason}`, details: { reason } };
}

/** Whole, plain buffers of `tensors`, each once: those can move between threads without a copy. */
function movable(tensors: readonly Tensor[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const tensor of tensors) {
    if (Array.isArray(tensor.data)) continue;
    const view = tensor.data as NumericTensorData;
    if (view.buffer instanceof ArrayBuffer && view.byteLength === view.buffer.byteLength) buffers.add(view.buffer);
  }
  return [...buffers];
}

function post(reply: SessionThreadReply, transfer: readonly ArrayBuffer[]): void {
  try {
    port.postMessage(reply, [...transfer]);
  } catch {
    // A buffer the runtime will not let go of is copied instead.
    port.postMessage(reply);
  }
}

function load(request: Extract<SessionThreadRequest, { kind: 'load' }>): void {
  runtime.loadHere(request.modelPath, request.options).then(
    (loaded) => {
      const session = nextSession++;
      sessions.set(session, loaded);
      post({ kind: 'loaded', id: request.id, session, inputs: loaded.inputs, outputs: loaded.outputs, selection: loaded.providerSelection, threadId }, []);
    },
    (error: unknown) => {
      post({ kind: 'failed', id: request.id, error: threadError(error, 'SLUICE_MODEL_LOAD_FAILED', `cannot load ${request.modelPath}`), lent: [] }, []);
    },
  );
}

function run(request: Extract<SessionThreadRequest, { kind: 'run' }>): void {
  // Input buffers the owner moved here go back with the answer, for its next batch.
  const lent = request.lent;
  const loaded = sessions.get(request.session);
  if (loaded === undefined) {
    post({ kind: 'failed', id: request.id, error: { code: 'SLUICE_MODEL_UNLOADING', message: 'the session has been released', details: {} }, lent }, lent);
    return;
  }
  // FP32 data for FP16 inputs is rounded here, so that the event loop does not spend a batch's worth of it.
  loaded.run(toModelInputDatatypes(request.inputs, loaded.inputs), request.outputNames).then(
    (outputs) => {
      const back = [...lent, ...movable(outputs).filter((buffer) => !lent.includes(buffer))];
      post({ kind: 'ran', id: request.id, outputs, lent }, back);
    },
    (error: unknown) => {
      post({ kind: 'failed', id: request.id, error: threadError(error, 'SLUICE_INFERENCE_FAILED', `ONNX Runtime failed to run ${runModelFile(loaded.modelPath)}`), lent }, lent);
    },
  );
}

function release(request: Extract<SessionThreadRequest, { kind: 'release' }>): void {
  const loaded = sessions.get(request.session);
  sessions.delete(request.session);
  void (loaded?.release() ?? Promise.resolve()).then(() => {
    post({ kind: 'released', id: request.id }, []);
  });
}

port.on('message', (request: SessionThreadRequest) => {
  switch (request.kind) {
    case 'load':
      load(request);
      return;
    case 'run':
      run(request);
      return;
    case 'release':
      release(request);
      return;
  }
});
