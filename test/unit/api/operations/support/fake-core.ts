import { SluiceError } from '../../../../../src/sdk/errors/index.js';
import type { Tensor } from '../../../../../src/sdk/tensor/index.js';
import type { Envelope } from '../../../../../src/sdk/envelope/envelope.js';
import type {
  EnvelopedInferenceRequest,
  HandlerInferenceRequest,
  HandlerListInferenceRequest,
  TensorInferenceRequest,
} from '../../../../../src/serving/inference-service.js';
import type { ServingCore } from '../../../../../src/serving/serving-core.js';
import type { WorkflowRunOptions } from '../../../../../src/workflow/serving/workflow-service.js';
import type { WorkflowProgress, WorkflowResult } from '../../../../../src/workflow/index.js';

/** A model the fake core serves: its name, version and the envelope its manifest names, if any. */
export interface FakeModel {
  readonly name: string;
  readonly version: string;
  readonly envelope?: string;
}

/** A workflow the fake core serves: its inputs and outputs by name, and what a run answers. */
export interface FakeWorkflow {
  readonly name: string;
  readonly version: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly result: WorkflowResult;
  /** Told to the run's `onProgress` before it answers. */
  readonly progress?: readonly WorkflowProgress[];
}

/** Every request the operations handed to the core, by the method they called. */
export interface CoreCalls {
  readonly inferTensors: TensorInferenceRequest[];
  readonly predict: HandlerInferenceRequest[];
  readonly predictEnveloped: EnvelopedInferenceRequest[];
  readonly predictEach: HandlerListInferenceRequest[];
  readonly runs: { readonly name: string; readonly inputs: Readonly<Record<string, unknown>>; readonly options: WorkflowRunOptions }[];
}

/**
 * The parts of a serving core the operations use, recording what they are handed: the inference service
 * answers each tensor request with `outputs`, each handler request with `handled:<its body>`, and each
 * enveloped one with the envelope's name; a workflow run answers its {@link FakeWorkflow.result}.
 */
export function fakeCore(options: {
  readonly models?: readonly FakeModel[];
  readonly workflows?: readonly FakeWorkflow[];
  readonly outputs?: readonly Tensor[];
  readonly envelopes?: readonly string[];
}): { core: ServingCore; calls: CoreCalls } {
  const models = options.models ?? [];
  const workflows = options.workflows ?? [];
  const calls: CoreCalls = { inferTensors: [], predict: [], predictEnveloped: [], predictEach: [], runs: [] };
  const resolve = (name: string, version?: string): { name: string; version: string; manifest: { envelope?: string } } => {
    const model = models.find((m) => m.name === name && (version === undefined || m.version === version));
    if (model === undefined) throw new SluiceError('SLUICE_MODEL_NOT_FOUND', `model \`${name}\` is not registered`);
    return { name: model.name, version: model.version, manifest: model.envelope !== undefined ? { envelope: model.envelope } : {} };
  };
  const registered = (name: string): { name: string; version: string; plan: { workflow: object } } | undefined => {
    const workflow = workflows.find((w) => w.name === name);
    if (workflow === undefined) return undefined;
    return {
      name,
      version: workflow.version,
      plan: {
        workflow: {
          name,
          inputs: Object.fromEntries(workflow.inputs.map((input) => [input, { type: 'any' }])),
          outputs: Object.fromEntries(workflow.outputs.map((output) => [output, `node.${output}`])),
        },
      },
    };
  };
  const envelopes = (options.envelopes ?? []).map((name): Envelope => ({ name, decode: () => [], encode: () => ({ body: name }) }));
  const core = {
    registry: { has: (name: string) => models.some((m) => m.name === name), resolve },
    workflows: {
      find: registered,
      get: (name: string) => {
        const found = registered(name);
        if (found === undefined) throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `workflow \`${name}\` is not registered`);
        return found;
      },
    },
    envelopes: { find: (name: string) => envelopes.find((e) => e.name === name), names: () => envelopes.map((e) => e.name) },
    inference: {
      inferTensors: (request: TensorInferenceRequest) => {
        calls.inferTensors.push(request);
        return Promise.resolve({ version: resolve(request.model, request.version), result: options.outputs ?? [] });
      },
      predict: (request: HandlerInferenceRequest) => {
        calls.predict.push(request);
        return Promise.resolve({ version: resolve(request.model, request.version), result: `handled:${JSON.stringify(request.request.body)}` });
      },
      predictEnveloped: (request: EnvelopedInferenceRequest) => {
        calls.predictEnveloped.push(request);
        return Promise.resolve({ version: resolve(request.model, request.version), result: { body: request.envelope.name, contentType: 'text/plain' } });
      },
      predictEach: (request: HandlerListInferenceRequest) => {
        calls.predictEach.push(request);
        return Promise.resolve({ version: resolve(request.model, request.version), result: request.requests.map((r) => r.body) });
      },
    },
    workflowService: {
      run: (name: string, inputs: Readonly<Record<string, unknown>>, runOptions: WorkflowRunOptions) => {
        calls.runs.push({ name, inputs, options: runOptions });
        const workflow = workflows.find((w) => w.name === name);
        for (const step of workflow?.progress ?? []) runOptions.onProgress?.(step);
        return Promise.resolve({ workflow: registered(name), result: workflow?.result ?? { outputs: {} } });
      },
    },
  };
  return { core: core as unknown as ServingCore, calls };
}
