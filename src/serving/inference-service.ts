import { trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Logger } from '../sdk/logging/logger.js';
import { SluiceError, isSluiceError } from '../sdk/errors/index.js';
import { InFlightCount } from './in-flight-count.js';
import { RequestBudget } from '../budget/request-budget.js';
import type { Tensor } from '../sdk/tensor/index.js';
import type { ServingMetrics } from '../telemetry/metrics/serving-metrics.js';
import type { HookBus } from '../plugins/registry/hook-bus.js';
import { pluginFailure } from '../plugins/registry/plugin-failure.js';
import type { Envelope, EnvelopeRequest, EnvelopeResponse } from '../sdk/envelope/envelope.js';
import { ATTR, SPAN } from '../telemetry/telemetry-names.js';
import { annotateModel, endFailed, startChildSpan, withChildSpan } from '../telemetry/tracing/span-helpers.js';
import { tracerFor } from '../telemetry/tracing/request-tracer.js';
import { loggerWithTrace } from '../telemetry/logging/trace-log-fields.js';
import type { HandlerContext, HandlerRequest } from '../sdk/handler/handler.js';
import type { PartialSink } from '../partials/partial-sink.js';
import { PartialHandlerContext } from './partial-handler-context.js';
import { BoundedHandlerContext, type ThreadCallBounds } from './handler-pool/bounded-context.js';
import { DeadlineSweep } from './stage-deadline/deadline-sweep.js';
import { HandlerCall, type HandlerCallObserver } from './stage-deadline/handler-call.js';
import type { InferenceJob, InferenceOutcome } from '../batching/scheduler.js';
import { validateInputs, validateOutputNames } from '../runtime/input-validation.js';
import type { ModelRegistry } from './model-registry.js';
import { preparedRequestProblem } from './prepared-request-problem.js';
import type { ModelVersion } from './model-version.js';

/** How one request is run, besides its inputs. */
export interface RequestKnobs {
  /**
   * What the request may spend, as its transport's edge read it (the client's deadline, the request's own
   * timeout, its cancellation and priority); unbounded when absent (a call inside the server). The
   * service narrows it by the version's response timeout and hands that one value to the scheduler, the
   * handler pool and the deadline sweep of handler stages.
   */
  readonly budget?: RequestBudget;
  /**
   * Run a priority beyond the version's levels at its lowest level instead of refusing it: a workflow
   * gives one priority to models that may have different numbers of levels.
   */
  readonly clampPriority?: boolean;
  /** Let requests submitted in the same turn of the event loop share a batch (workflow `forEach` calls). */
  readonly gather?: boolean;
  /** The API the request came through (`predictions`, `v1`, `v2`, `grpc`, `workflow`), for hooks. */
  readonly api?: string;
  /** The request's id, for hooks. */
  readonly requestId?: string;
  /**
   * The request's trace context (its server span, or the span of the workflow node that calls), passed
   * explicitly: the request's `preprocess`, `queue.wait`, `postprocess` and `envelope.decode` spans are
   * its children. Absent when the request is not traced.
   */
  readonly traceContext?: Context;
  /**
   * Where the handler's intermediate answers go (`HandlerContext.sendPartial`) when the transport streams
   * them; without it they are dropped. The handler's signal aborts when the client leaves either way (the
   * budget's cancellation).
   */
  readonly partials?: PartialSink;
}

/** A request in tensors (Open Inference Protocol, KServe v2). */
export interface TensorInferenceRequest extends RequestKnobs {
  readonly model: string;
  readonly version?: string;
  readonly inputs: readonly Tensor[];
  /** Outputs to return; all when omitted. */
  readonly outputs?: readonly string[];
}

/** A request whose body the model's handler interprets (`/predictions`, KServe v1). */
export interface HandlerInferenceRequest extends RequestKnobs {
  readonly model: string;
  readonly version?: string;
  readonly request: HandlerRequest;
}

/** The entries of one body, each a request of the model's handler (KServe v1 `instances`). */
export interface HandlerListInferenceRequest extends RequestKnobs {
  readonly model: string;
  readonly version?: string;
  readonly requests: readonly HandlerRequest[];
  /** What the body calls its list (`instances`): errors name the failing entry `instances[2]`. */
  readonly listName: string;
}

/** A request whose body an envelope turns into the handler's requests (`/predictions` with an envelope). */
export interface EnvelopedInferenceRequest extends RequestKnobs {
  readonly model: string;
  readonly version?: string;
  readonly envelope: Envelope;
  readonly body: EnvelopeRequest;
}

/** The answer and the version that produced it. */
export interface InferenceAnswer<T> {
  readonly version: ModelVersion;
  readonly result: T;
}

/**
 * The handler context of one traced call: the version's own, with a tracer bound to the stage's span and
 * a logger whose lines carry the trace, each made when the handler first uses it (most never do), as is
 * the stage's trace context. A class, not an object literal with getters: a literal makes its getter
 * functions anew for every call.
 */
class TracedHandlerContext implements HandlerContext {
  readonly model: HandlerContext['model'];
  readonly config: HandlerContext['config'];
  private boundTracer: Tracer | undefined;
  private boundLogger: Logger | undefined;
  private stageContext: Context | undefined;

  constructor(
    private readonly shared: HandlerContext,
    /** The request's trace context. */
    private readonly request: Context,
    /** The stage's span, a child of the request's. */
    private readonly span: Span,
  ) {
    this.model = shared.model;
    this.config = shared.config;
  }

  /** Read through: the request's signal is made on first use (it listens to the client). */
  get signal(): AbortSignal {
    return this.shared.signal;
  }

  sendPartial(answer: unknown): Promise<void> {
    return this.shared.sendPartial(answer);
  }

  get tracer(): Tracer {
    return (this.boundTracer ??= tracerFor(this.stage));
  }

  get logger(): Logger {
    return (this.boundLogger ??= loggerWithTrace(this.shared.logger, this.stage));
  }

  private get stage(): Context {
    return (this.stageContext ??= trace.setSpan(this.request, this.span));
  }
}

/** The handler context for one call: the version's own, or when the stage has a span, a {@link TracedHandlerContext}. */
function contextFor(shared: HandlerContext, request: Context | undefined, span: Span | undefined): HandlerContext {
  return request === undefined || span === undefined ? shared : new TracedHandlerContext(shared, request, span);
}

/** The context of one handler stage: {@link contextFor}, bounded by `budget` on a handler thread. */
function stageContext(shared: HandlerContext, request: Context | undefined, span: Span | undefined, budget: RequestBudget | undefined, bounds: ThreadCallBounds | undefined): HandlerContext {
  const context = contextFor(shared, request, span);
  return budget === undefined ? context : new BoundedHandlerContext(context, budget, bounds);
}

/**
 * What bounds a request's wait for a handler thread besides its budget: the same as its wait in the
 * model's queue (its own timeout under `queuePolicy: reject`, `jobQueueSize`).
 */
function threadCallBounds(version: ModelVersion): ThreadCallBounds {
  return { ownTimeoutEndsWait: version.settings.queuePolicy === 'reject', waitLimit: version.settings.jobQueueSize };
}

/**
 * The request's budget on `version`: its hard deadline no later than the version's response timeout from
 * `started`, and its priority clamped to the version's levels when asked.
 */
function budgetOn(version: ModelVersion, knobs: RequestKnobs, started: number): RequestBudget {
  const budget = knobs.budget ?? RequestBudget.of({}, started);
  const asked = budget.priority;
  const priority = asked !== undefined && knobs.clampPriority === true ? Math.min(asked, version.settings.priorityLevels) : asked;
  return budget.within(started + version.settings.responseTimeoutMs, priority);
}

/**
 * What a failing handler stage answers. A plugin's handler is reported as the plugin's failure
 * (`SLUICE_PLUGIN_FAILED` naming it, unless it raised a Sluice error on purpose); any other handler's as
 * `SLUICE_HANDLER_FAILED`.
 */
function handlerFailure(version: ModelVersion, stage: string, error: unknown): SluiceError {
  if (version.handlerPlugin !== undefined) return pluginFailure(version.handlerPlugin, `handler \`${version.manifest.handler}\` (${stage})`, error);
  if (isSluiceError(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError(
    'SLUICE_HANDLER_FAILED',
    `handler \`${version.manifest.handler}\` of model \`${version.name}\` failed in ${stage}: ${reason}`,
    { handler: version.manifest.handler, stage },
    { cause: error },
  );
}

/**
 * Refuses `count` requests of one body that could never all be queued by `version`: more than its
 * queue holds is `SLUICE_REQUEST_INVALID`, since a 503 would invite a retry that fails the same way.
 * `what` says what made them (`` `instances` has 3 entries ``).
 */
function refuseOverQueue(version: ModelVersion, count: number, what: string, details: Readonly<Record<string, unknown>>): void {
  const queueSize = version.settings.jobQueueSize;
  if (count <= queueSize) return;
  throw new SluiceError(
    'SLUICE_REQUEST_INVALID',
    `${what}, more than the ${queueSize} that model \`${version.name}\` version \`${version.version}\` can queue (jobQueueSize); send at most ${queueSize} instances per request, or raise jobQueueSize`,
    { ...details, jobQueueSize: queueSize },
  );
}

/**
 * True for a request refused as the client's fault (its tensors do not fit the model, its handler found
 * its input invalid, its priority is out of range) or dropped because its client left: the model's
 * series do not count it, as they do not count a tensor request refused by validation.
 */
function refusedAsInvalid(error: unknown): boolean {
  return isSluiceError(error) && error.category === 'INVALID_ARGUMENT';
}

/** The error of one entry of a list, its message starting with the entry's place (`instances[2]: …`). */
function entryFailure(place: string, index: number, error: unknown): unknown {
  if (!isSluiceError(error)) return error;
  return new SluiceError(error.code, `${place}: ${error.message}`, { ...error.details, entry: index }, { cause: error });
}

/**
 * Runs inference requests: resolves the model version, validates tensors against its specs before
 * anything is queued, hands the job to the version's scheduler and records metrics.
 */
export class InferenceService {
  /** Whether any plugin listens to preInfer or postInfer. */
  private readonly hooksListen: boolean;
  /** Answers requests whose event-loop handler stage outlives their deadline. */
  private readonly stageDeadlines = new DeadlineSweep();
  /** Handler requests begun and not yet answered: a graceful stop waits for them. */
  private readonly handlerCalls = new InFlightCount();
  /** False once the server stops: new requests are refused, those begun go on. */
  private taking = true;
  /** Records how each handler request ended, once: made once, not per request. */
  private readonly observeCall: HandlerCallObserver = (version, started, queueUs, failure) => {
    this.handlerCalls.ended();
    version.requestsInFlight -= 1;
    if (failure === undefined) this.observe(version, true, started, queueUs);
    else if (!refusedAsInvalid(failure.error)) this.observe(version, false, started, queueUs);
  };

  constructor(
    private readonly registry: ModelRegistry,
    private readonly metrics: ServingMetrics,
    private readonly hooks?: HookBus,
  ) {
    // The hook bus is frozen by now, so whether anyone listens is decided once, not per request.
    this.hooksListen = hooks !== undefined && (hooks.has('preInfer') || hooks.has('postInfer'));
  }

  /** Tensors in, tensors out. */
  async inferTensors(request: TensorInferenceRequest): Promise<InferenceAnswer<readonly Tensor[]>> {
    const version = this.readyVersion(request.model, request.version, request.traceContext);
    const started = performance.now();
    validateInputs(version.name, version.description.inputs, request.inputs, version.acceptsDatatype, version.checkInput);
    const outputNames = request.outputs && validateOutputNames(version.name, version.description.outputs, request.outputs);
    let ran;
    version.requestsInFlight += 1;
    try {
      ran = await this.schedule(version, request.inputs, outputNames, request, budgetOn(version, request, started), started);
    } catch (error) {
      if (!refusedAsInvalid(error)) this.observe(version, false, started, undefined);
      throw error;
    } finally {
      version.requestsInFlight -= 1;
    }
    this.observe(version, true, started, ran.queueUs);
    return { version, result: ran.outputs };
  }

  /**
   * The model's handler turns the request into tensors and the outputs into a JSON-ready answer. A
   * handler stage still unsettled when the request's deadline passes is answered
   * `SLUICE_RESPONSE_TIMEOUT`: on a handler thread the pool stops it; on the event loop nothing can, so
   * the request is answered at once and whatever the stage does later is dropped.
   */
  predict(request: HandlerInferenceRequest): Promise<InferenceAnswer<unknown>> {
    // The answer is the call's, not an async method's: the deadline sweep must be able to give it.
    const call = new HandlerCall<InferenceAnswer<unknown>>(this.observeCall);
    void this.runHandler(request, call);
    return call.answer;
  }

  /** {@link predict}'s work: settles `call` with the answer or the error, and never rejects itself. */
  private async runHandler(request: HandlerInferenceRequest, call: HandlerCall<InferenceAnswer<unknown>>): Promise<void> {
    try {
      const version = this.readyVersion(request.model, request.version, request.traceContext);
      const started = performance.now();
      const budget = budgetOn(version, request, started);
      call.begin(version, started, budget);
      this.handlerCalls.began();
      version.requestsInFlight += 1;
      // A CPU-heavy handler's stages are bounded on their thread by the pool, which reads the budget from
      // the context; an event-loop handler's by the sweep, which they enter while they wait.
      const onLoop = version.handler.cpuHeavy === undefined;
      const threadBudget = onLoop ? undefined : budget;
      const bounds = onLoop ? undefined : threadCallBounds(version);
      const sweep = this.stageDeadlines;
      const context = new PartialHandlerContext(version.handlerContext(), budget.cancellation, request.partials);
      const traceContext = request.traceContext;
      // The request span already names the model; its children carry no attributes of their own (cheaper to export).
      const preprocessSpan = startChildSpan(traceContext, SPAN.preprocess);
      let prepared;
      try {
        const work = version.handler.preprocess([request.request], stageContext(context, traceContext, preprocessSpan, threadBudget, bounds));
        if (onLoop) sweep.enter(call.during('preprocess', preprocessSpan));
        [prepared] = await work;
      } catch (error) {
        if (preprocessSpan !== undefined) endFailed(preprocessSpan, error);
        throw handlerFailure(version, 'preprocess', error);
      } finally {
        sweep.leave(call);
      }
      // Answered already: what a late stage made must not reach the queue.
      if (call.expired) return;
      preprocessSpan?.end();
      if (prepared === undefined) throw handlerFailure(version, 'preprocess', new Error('it returned no entry for the request'));
      // A malformed tensor is the handler's fault: it must not reach the model, nor be answered as the client's.
      const problem = preparedRequestProblem(prepared);
      if (problem !== undefined) throw handlerFailure(version, 'preprocess', new Error(problem));
      validateInputs(version.name, version.description.inputs, prepared.inputs, version.acceptsDatatype, version.checkInput);
      const outputNames = prepared.outputNames && validateOutputNames(version.name, version.description.outputs, prepared.outputNames);
      const ran = await this.schedule(version, prepared.inputs, outputNames, request, budget, started);
      call.queueUs = ran.queueUs;
      const outputs = ran.outputs;
      const postprocessSpan = startChildSpan(traceContext, SPAN.postprocess);
      let answer;
      try {
        const work = version.handler.postprocess([{ request: request.request, outputs, state: prepared.state }], stageContext(context, traceContext, postprocessSpan, threadBudget, bounds));
        if (onLoop) sweep.enter(call.during('postprocess', postprocessSpan));
        [answer] = await work;
      } catch (error) {
        if (postprocessSpan !== undefined) endFailed(postprocessSpan, error);
        throw handlerFailure(version, 'postprocess', error);
      } finally {
        sweep.leave(call);
      }
      // Once the call expired, its span has ended and its answer gone out: both of these do nothing then.
      postprocessSpan?.end();
      // A JSON answer of nothing would go out as an empty 200; `null` is an answer, `undefined` is not.
      if (answer === undefined) throw handlerFailure(version, 'postprocess', new Error('it returned no answer for the request (undefined, or fewer answers than requests)'));
      call.resolve({ version, result: answer });
    } catch (error) {
      call.fail(error);
    }
  }

  /**
   * The envelope splits the body into the handler's requests (one per instance), and they are predicted
   * as by {@link predictEach}; the envelope joins the answers. An envelope that names the list its
   * requests came from (`decodeEntries`) has a failing entry named by its place (`instances[2]: …`);
   * otherwise the failing request's error is answered as it is.
   */
  async predictEnveloped(request: EnvelopedInferenceRequest): Promise<InferenceAnswer<EnvelopeResponse>> {
    const version = this.readyVersion(request.model, request.version, request.traceContext);
    const context = { model: version.description };
    const { envelope, body, ...knobs } = request;
    const { requests, listName } = await withChildSpan(request.traceContext, SPAN.envelopeDecode, { [ATTR.envelope]: envelope.name }, () =>
      envelope.decodeEntries !== undefined ? envelope.decodeEntries(body, context) : { requests: envelope.decode(body, context), listName: undefined },
    );
    // Worded as predictEach words it when the envelope names its list, so `kserve` answers as `:predict` does.
    const made = listName !== undefined ? `\`${listName}\` has ${requests.length} entries` : `the ${envelope.name} envelope made ${requests.length} requests of this body`;
    refuseOverQueue(version, requests.length, made, { envelope: envelope.name, requests: requests.length });
    const answers = await this.predictAll(version, requests, listName, knobs);
    return { version, result: envelope.encode(answers, context) };
  }

  /**
   * Each entry of the list is predicted as by {@link predict}, all submitted together so they share a
   * batch, and the answers come back in the list's order. A list longer than the version's queue is
   * refused before anything runs. The first entry to fail fails the whole call at once, with that
   * entry's error, its message starting with its place in the list (`instances[2]: …`); the others are
   * then the requests of a client that has its answer (its cancellation), dropped if still queued.
   */
  async predictEach(request: HandlerListInferenceRequest): Promise<InferenceAnswer<unknown[]>> {
    const version = this.readyVersion(request.model, request.version, request.traceContext);
    const { requests, listName, ...knobs } = request;
    refuseOverQueue(version, requests.length, `\`${listName}\` has ${requests.length} entries`, { entries: requests.length });
    return { version, result: await this.predictAll(version, requests, listName, knobs) };
  }

  /**
   * The requests of one body on `version`, submitted together, their answers in order; the first to fail
   * fails them all, its error's message starting with its place in `listName` when there is one.
   */
  private predictAll(version: ModelVersion, requests: readonly HandlerRequest[], listName: string | undefined, knobs: RequestKnobs): Promise<unknown[]> {
    // One answer per entry, joined: the entries' partials have nowhere to go.
    const { partials: _dropped, ...rest } = knobs;
    const pinned = { ...rest, model: version.name, version: version.version, gather: true };
    return Promise.all(
      requests.map(async (handlerRequest, index) => {
        try {
          return (await this.predict({ ...pinned, request: handlerRequest })).result;
        } catch (error) {
          throw listName === undefined ? error : entryFailure(`${listName}[${index}]`, index, error);
        }
      }),
    );
  }

  /**
   * The first step of a graceful stop: new requests are refused with `SLUICE_SERVER_SHUTTING_DOWN`,
   * while those begun go on; resolves true once every handler request begun has its answer (its
   * preprocess, model run and postprocess), or false when `timeoutMs` passes first.
   */
  stopTaking(timeoutMs: number): Promise<boolean> {
    this.taking = false;
    return this.handlerCalls.settled(timeoutMs);
  }

  private readyVersion(model: string, versionName: string | undefined, trace: Context | undefined): ModelVersion {
    if (!this.taking) throw new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and takes no new requests; retry on another replica');
    const version = this.registry.resolve(model, versionName);
    annotateModel(trace, version.name, version.version);
    if (version.state !== 'ready') {
      throw new SluiceError('SLUICE_MODEL_UNLOADING', `model \`${version.name}\` version \`${version.version}\` is being unloaded`);
    }
    return version;
  }

  /**
   * Counts one request of `version` that reached the model (tensors that passed validation, or a request
   * its handler was given) in the version's request, failure, latency and queue-time series.
   */
  private observe(version: ModelVersion, ok: boolean, started: number, queueUs: number | undefined): void {
    this.metrics.inferenceCompleted({
      model: version.name,
      version: version.version,
      ok,
      latencyUs: (performance.now() - started) * 1000,
      ...(queueUs !== undefined ? { queueUs } : {}),
    });
  }

  /**
   * Queues validated tensors on the version's scheduler, between the plugins' preInfer and postInfer hooks.
   * Without listeners the scheduler's own promise is returned: no layer of promise between the request
   * and its answer.
   */
  private schedule(
    version: ModelVersion,
    inputs: readonly Tensor[],
    outputNames: readonly string[] | undefined,
    knobs: RequestKnobs,
    budget: RequestBudget,
    started: number,
  ): Promise<InferenceOutcome> {
    const job: InferenceJob = {
      inputs,
      ...(outputNames ? { outputNames } : {}),
      budget,
      ...(knobs.gather === true ? { gather: true } : {}),
      ...(knobs.traceContext !== undefined ? { traceContext: knobs.traceContext } : {}),
    };
    if (!this.hooksListen) return version.scheduler.enqueue(job);
    return this.scheduleTold(version, job, knobs, started);
  }

  /** {@link schedule} with preInfer and postInfer told. */
  private async scheduleTold(version: ModelVersion, job: InferenceJob, knobs: RequestKnobs, started: number): Promise<InferenceOutcome> {
    const hooks = this.hooks;
    const event = { model: version.description, api: knobs.api ?? 'internal', ...(knobs.requestId !== undefined ? { requestId: knobs.requestId } : {}) };
    hooks?.emit('preInfer', event);
    const told = (ok: boolean, errorCode?: string): void => {
      hooks?.emit('postInfer', { ...event, ok, durationMs: performance.now() - started, ...(errorCode !== undefined ? { errorCode } : {}) });
    };
    try {
      const outcome = await version.scheduler.enqueue(job);
      told(true);
      return outcome;
    } catch (error) {
      told(false, isSluiceError(error) ? error.code : undefined);
      throw error;
    }
  }
}
