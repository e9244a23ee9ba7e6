import { isSluiceError, SluiceError } from '../../sdk/errors/index.js';
import { nameRuleProblem } from '../../serving/name-rule.js';
import { schemaPattern } from '../../json-schema/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { SluiceConfig } from '../../config/index.js';
import { storeRelativeError } from '../../serving/store-relative-error.js';
import { modelNamePattern, type SnapshotWorkflow } from '../../model-store/index.js';
import { basename } from 'node:path';
import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import { formatWorkflowProblem, loadWorkflow, type WorkflowCatalog, type WorkflowProblem } from '../index.js';
import type { InferenceService } from '../../serving/inference-service.js';
import type { EnsuredModel, ModelManager } from '../../serving/model-manager.js';
import { convertTorchServeSpec } from './torchserve/torchserve-conversion.js';
import { torchServeHandlers } from './torchserve/torchserve-handlers.js';
import { specModelName, specModelUrl } from './torchserve/torchserve-model-url.js';
import { looksLikeTorchServeSpec, parseSpecYaml, readTorchServeSpec } from './torchserve/torchserve-spec.js';
import { withLocalHandlers } from './local-handlers-catalog.js';
import { checkCallersAccept, checkWorkflowNotCalled } from './caller-check.js';
import { MutationQueue } from '../../serving/mutation-queue.js';
import { checkWorkflowNameFree } from '../../serving/name-claims.js';
import type { OwnedModel, RegisteredWorkflow, WorkflowRegistry } from './workflow-registry.js';
import { findSiblingModule, readWorkflowModule, readWorkflowSource, scanWorkflowStore, type WorkflowSource } from './workflow-sources.js';

/**
 * The document of a TorchServe spec; undefined for anything else. A file that is not even YAML is left
 * to the workflow parser, which reports every problem at its line and column.
 */
export function torchServeDocument(source: Pick<WorkflowSource, 'text' | 'name'>): unknown {
  let document: unknown;
  try {
    document = parseSpecYaml(source.text, source.name);
  } catch (error) {
    if (isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) return undefined;
    throw error;
  }
  return looksLikeTorchServeSpec(document) ? document : undefined;
}

/**
 * Whether a workflow was refused for a `workflow:` node (among other problems, maybe): at start-up, the
 * workflow it calls may simply not be registered yet.
 */
function refusedForWorkflowNode(error: unknown): boolean {
  if (!isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) return false;
  const problems = (error.details as { problems?: readonly WorkflowProblem[] } | undefined)?.problems ?? [];
  return problems.some((problem) => /^nodes\.[^.]+\.workflow$/.test(problem.path));
}

/** A workflow read and, for a TorchServe spec, converted, with its models registered: ready to validate and register. */
interface PreparedWorkflow {
  readonly source: WorkflowSource;
  /** The name a TorchServe spec registers under (a workflow file's own is known once it is validated). */
  readonly name?: string;
  /** The workflow file to validate: the source's text, or the converted spec. */
  readonly text: string;
  readonly localHandlers?: ReadonlyMap<string, NodeHandler>;
  /** The models the local handlers call. */
  readonly handlerModels?: readonly string[];
  /** Models this registration registered (taken back if it is refused). */
  readonly added: readonly EnsuredModel[];
}

/** A model a converted spec's node calls was unregistered after the spec registered it, before the workflow itself registered. */
function checkHandlerModelRegistered(model: string, workflow: string, modelNamed: (name: string) => boolean): void {
  if (modelNamed(model)) return;
  throw new SluiceError(
    'SLUICE_MODEL_NOT_FOUND',
    `model \`${model}\`, which workflow \`${workflow}\` calls, was unregistered while the workflow was being registered; register the workflow again`,
    { model, workflow },
  );
}

/** How the snapshot records `workflow`, registered by `request` (when known: start-up may not have it). */
function snapshotEntryOf(workflow: RegisteredWorkflow, request: RegisterWorkflowRequest | undefined): SnapshotWorkflow {
  const models = workflow.ownModels ?? [];
  return {
    name: workflow.name,
    url: request?.url ?? workflow.url,
    ...(request?.handler !== undefined ? { handler: request.handler } : {}),
    ...(request?.storePath !== undefined ? { storePath: request.storePath } : {}),
    ...(models.length > 0 ? { models: models.map(({ name, version }) => ({ name, version })) } : {}),
  };
}

/** `lists` merged, each model version once, in the order first given. */
function unionOfModels(...lists: readonly (readonly OwnedModel[] | undefined)[]): OwnedModel[] {
  const merged = new Map<string, OwnedModel>();
  for (const model of lists.flatMap((list) => list ?? [])) merged.set(`${model.name}@${model.version}`, { name: model.name, version: model.version });
  return [...merged.values()];
}

/** Workflows by name, as the registry lists them. */
function byName(a: SnapshotWorkflow, b: SnapshotWorkflow): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** A workflow registration. */
export interface RegisterWorkflowRequest {
  readonly url: string;
  /** Serve under this name instead of the file's `metadata.name`. */
  readonly name?: string | undefined;
  /** For TorchServe specs: the module (in the workflow store) exporting the function nodes. */
  readonly handler?: string | undefined;
  /** Headers sent with every download the registration makes (the caller's W3C `traceparent`, `tracestate`, `baggage`). */
  readonly traceHeaders?: Readonly<Record<string, string>> | undefined;
  /**
   * The model versions the workflow registered itself before (a restored snapshot says so): a restore finds
   * them registered already, and they stay the workflow's, unregistered with it.
   */
  readonly ownModels?: readonly OwnedModel[] | undefined;
  /**
   * For an object-store source: its downloaded copy, relative to the model store (a restored snapshot
   * says so, and a registration records it); read instead of fetching the object again while it is there.
   */
  readonly storePath?: string | undefined;
}

/** What unregistering a workflow did. */
export interface WorkflowUnregistration {
  readonly workflow: RegisteredWorkflow;
  /** The models it had registered itself and that went with it (`name`, or `name` version `v`). */
  readonly models: readonly string[];
  /** Models it had registered that stayed, each with why (another workflow calls it, say). */
  readonly kept: readonly { readonly model: string; readonly reason: string }[];
}

/** What start-up registered and what it could not. */
export interface WorkflowStartupReport {
  readonly loaded: readonly string[];
  readonly failed: readonly { readonly source: string; readonly reason: string }[];
}

/** Everything the workflow manager works with. */
export interface WorkflowManagerDeps {
  readonly registry: WorkflowRegistry;
  readonly catalog: WorkflowCatalog;
  readonly config: SluiceConfig;
  readonly logger: Logger;
  /**
   * Makes a change in the model manager's turn: the snapshot of the workflows `change` answers is written
   * before the change applies, and a snapshot that cannot be written leaves it unmade.
   */
  readonly commit: ModelManager['commitWorkflows'];
  /** Registers the models a TorchServe spec names (those not registered yet). */
  readonly ensureModels: ModelManager['ensureRegistered'];
  /**
   * Unregisters a model version (every version without `version`) that a refused TorchServe spec, or an
   * unregistered workflow, had registered.
   */
  readonly removeModel: (name: string, version?: string) => Promise<unknown>;
  /** The registered versions of model `name`. */
  readonly modelVersions: (name: string) => readonly string[];
  readonly inference: InferenceService;
  /** Whether a model holds `name`: a workflow may not take it. */
  readonly modelNamed: (name: string) => boolean;
}

let namePattern: RegExp | undefined;

/** The rule of a workflow file's `metadata.name`, read from its schema: every workflow name follows it. */
function workflowNamePattern(): RegExp {
  namePattern ??= schemaPattern('workflow.schema.json', ['properties', 'metadata', 'properties', 'name']);
  return namePattern;
}

/**
 * Registers and unregisters workflows. A workflow is parsed, validated against what is registered now
 * (models, handlers, other workflows) and planned before it replaces anything; re-registering a name swaps
 * in one step while runs in flight finish on the old plan.
 */
export class WorkflowManager {
  private readonly mutations = new MutationQueue();
  private readonly requests = new Map<string, RegisterWorkflowRequest>();

  constructor(private readonly deps: WorkflowManagerDeps) {}

  /**
   * Reads, validates, plans and registers a workflow; throws `SLUICE_WORKFLOW_INVALID` with every problem,
   * `SLUICE_MANAGEMENT_INVALID_ARGUMENT` at once (before anything is read) for a name that breaks the
   * rule of workflow files' `metadata.name`, and `SLUICE_MODEL_ALREADY_REGISTERED` for a name a model holds.
   */
  async register(request: RegisterWorkflowRequest): Promise<RegisteredWorkflow> {
    const problem = request.name === undefined ? undefined : nameRuleProblem('`workflow_name`', workflowNamePattern(), request.name);
    if (problem !== undefined) throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', problem);
    // A name given outright is refused before anything is read (or a TorchServe spec's models loaded).
    if (request.name !== undefined) checkWorkflowNameFree(request.name, this.deps.modelNamed);
    // Downloads (of the workflow and of a TorchServe spec's models) touch no registered workflow, so they run
    // before this registration's turn: one that takes up to `download.timeoutMs` must not hold up the others.
    try {
      const prepared = await this.prepare(request);
      return await this.mutations.run(() => this.install(prepared, request));
    } catch (error) {
      throw storeRelativeError(error, this.deps.config);
    }
  }

  /**
   * Removes a workflow; refuses with `SLUICE_WORKFLOW_IN_USE` while other registered workflows call it,
   * since their every run would then fail. Then, as TorchServe does, unregisters the models its TorchServe
   * spec registered itself (`<workflow>__<model>`), and only those: a model it found registered stays. One
   * that cannot go (another workflow calls it) stays and is reported; the workflow is gone either way.
   */
  unregister(name: string): Promise<WorkflowUnregistration> {
    return this.mutations.run(async () => {
      const workflow = await this.deps.commit(() => {
        checkWorkflowNotCalled(name, this.deps.registry.callers(name));
        this.deps.registry.get(name);
        return {
          workflows: this.snapshotEntries().filter((w) => w.name !== name),
          apply: () => {
            const removed = this.deps.registry.remove(name);
            this.requests.delete(name);
            this.deps.logger.info('workflow unregistered', { workflow: name });
            return removed;
          },
        };
      });
      return { workflow, ...(await this.removeOwnModels(workflow)) };
    });
  }

  /**
   * Unregisters the model versions `workflow` registered itself (after the workflow, whose calls would
   * otherwise keep them in use): a model whose every registered version is the workflow's goes whole,
   * else version by version.
   */
  private async removeOwnModels(workflow: RegisteredWorkflow): Promise<Omit<WorkflowUnregistration, 'workflow'>> {
    const byName = new Map<string, string[]>();
    for (const { name, version } of workflow.ownModels ?? []) byName.set(name, [...(byName.get(name) ?? []), version]);
    const models: string[] = [];
    const kept: { model: string; reason: string }[] = [];
    for (const [model, versions] of byName) {
      const registered = this.deps.modelVersions(model);
      const whole = registered.length > 0 && registered.every((v) => versions.includes(v));
      for (const version of whole ? [undefined] : versions) {
        const label = version === undefined ? model : `${model} version ${version}`;
        try {
          await this.deps.removeModel(model, version);
          models.push(label);
          this.deps.logger.info('model unregistered with the workflow that registered it', { workflow: workflow.name, model, ...(version !== undefined ? { version } : {}) });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          // Already unregistered by hand: nothing is left to take away.
          if (isSluiceError(error, 'SLUICE_MODEL_NOT_FOUND') || isSluiceError(error, 'SLUICE_MODEL_VERSION_NOT_FOUND')) continue;
          kept.push({ model: label, reason });
          this.deps.logger.warn('a model the workflow registered stays registered', { workflow: workflow.name, model, ...(version !== undefined ? { version } : {}), reason });
        }
      }
    }
    return { models, kept };
  }

  /** The registered workflows as the snapshot records them. */
  snapshotEntries(): SnapshotWorkflow[] {
    return this.deps.registry.all().map((w) => snapshotEntryOf(w, this.requests.get(w.name)));
  }

  /**
   * Registers the start-up workflows: the snapshot's when one was restored, else the configured ones. A
   * workflow that fails is logged with its problems; the others still register. The list is in name order,
   * so a workflow may call one that comes after it: one refused for a workflow node is tried again once
   * others have registered, until a pass registers none.
   */
  startup(fromSnapshot: readonly SnapshotWorkflow[] | undefined): Promise<WorkflowStartupReport> {
    return this.mutations.run(async () => {
      let pending: readonly RegisterWorkflowRequest[] =
        fromSnapshot?.map(({ name, url, handler, models, storePath }) => ({ name, url, handler, ownModels: models, storePath })) ?? (await this.configured()).map((url) => ({ url }));
      const loaded: string[] = [];
      const failed: { source: string; reason: string }[] = [];
      const fail = (source: string, reason: string): void => {
        failed.push({ source, reason });
        this.deps.logger.error('workflow failed to load; the others still start', { source, reason });
      };
      while (pending.length > 0) {
        const waiting: { request: RegisterWorkflowRequest; reason: string }[] = [];
        const before = loaded.length;
        for (const request of pending) {
          try {
            loaded.push((await this.install(await this.prepare(request), request)).name);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            if (refusedForWorkflowNode(error)) waiting.push({ request, reason });
            else fail(request.url, reason);
          }
        }
        if (loaded.length === before) {
          for (const { request, reason } of waiting) fail(request.url, reason);
          break;
        }
        pending = waiting.map(({ request }) => request);
      }
      return { loaded, failed };
    });
  }

  /**
   * A TorchServe spec: its models registered, its nodes made handler nodes and the spec converted to a
   * workflow file. A spec that fails here takes back the models its registration added, so a failed
   * attempt leaves the server as it found it.
   */
  private async prepareTorchServe(document: unknown, source: WorkflowSource, request: RegisterWorkflowRequest): Promise<PreparedWorkflow> {
    const spec = readTorchServeSpec(document, source.name);
    const name = request.name ?? source.packedAs ?? basename(request.url).replace(/\.(ya?ml)$/, '');
    const problem = nameRuleProblem("the workflow's name, taken from its file name,", workflowNamePattern(), name);
    if (problem !== undefined) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${source.name}: ${problem}; register it with workflow_name`);
    checkWorkflowNameFree(name, this.deps.modelNamed);
    const models = new Map<string, string>();
    const added: EnsuredModel[] = [];
    try {
      for (const model of spec.models) {
        const modelName = specModelName(name, model.node);
        const badName = nameRuleProblem(`model \`${model.node}\` is registered as <workflow>__<model>, as TorchServe names it, and that name`, modelNamePattern(), modelName);
        if (badName !== undefined) throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${source.name}: ${badName}; rename the model in the spec, or register the workflow under a shorter workflow_name`);
        // A restore finds the spec's own models restored already, from their kept copies: they are not
        // fetched again from their source (which may be out of reach now).
        const restored = request.ownModels?.find((m) => m.name === modelName);
        if (restored !== undefined && this.deps.modelNamed(modelName)) {
          models.set(model.node, modelName);
          continue;
        }
        const ensured = await this.deps.ensureModels({
          url: await specModelUrl(model.url, this.deps.config.modelStore),
          name: modelName,
          traceHeaders: request.traceHeaders,
          minWorkers: model.minWorkers,
          maxWorkers: model.maxWorkers,
          batchSize: model.batchSize,
          maxBatchDelayMs: model.maxBatchDelayMs,
        });
        added.push(...ensured.filter((m) => m.added));
        const [registered] = ensured;
        if (registered !== undefined) models.set(model.node, registered.name);
      }
      const handlerModule =
        request.handler === undefined ? await findSiblingModule(source.file) : (await readWorkflowModule(request.handler, source.baseDir)).path;
      const localHandlers = await torchServeHandlers({ workflow: name, spec, file: source.name, models, handlerModule, inference: this.deps.inference });
      return { source, name, text: convertTorchServeSpec(spec, name, '1'), localHandlers, handlerModels: [...new Set(models.values())], added };
    } catch (error) {
      await this.takeBack(added, name);
      throw error;
    }
  }

  /** Unregisters the models a refused spec registered; a failure here is logged, the refusal still stands. */
  private async takeBack(models: readonly EnsuredModel[], workflow: string): Promise<void> {
    for (const model of models) {
      try {
        await this.deps.removeModel(model.name, model.version);
        this.deps.logger.info('model taken back: the workflow that registered it was refused', { workflow, model: model.name, version: model.version });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.deps.logger.error('could not take back a model of a refused workflow', { workflow, model: model.name, version: model.version, reason });
      }
    }
  }

  private async configured(): Promise<string[]> {
    const { workflows, workflowStore } = this.deps.config;
    return workflows === 'all' ? scanWorkflowStore(workflowStore) : [...workflows];
  }

  /** Reads (or downloads) the workflow; a TorchServe spec also has its models registered here. */
  private async prepare(request: RegisterWorkflowRequest): Promise<PreparedWorkflow> {
    const source = await readWorkflowSource(request.url, this.deps.config, request.traceHeaders, request.storePath);
    const torchServe = torchServeDocument(source);
    return torchServe !== undefined ? this.prepareTorchServe(torchServe, source, request) : { source, text: source.text, added: [] };
  }

  /**
   * Validates and plans a prepared workflow against what is registered now and registers it, in the model
   * manager's turn (see {@link WorkflowManagerDeps.commit}), so that a model registered or unregistered
   * meanwhile cannot slip in between the checks and `put`; the snapshot is written in between. A refusal,
   * or a snapshot that cannot be written, takes back the models its preparation added.
   */
  private async install(prepared: PreparedWorkflow, asked: RegisterWorkflowRequest): Promise<RegisteredWorkflow> {
    // The snapshot records where an object-store source was kept, so a restore need not fetch it again.
    const request: RegisterWorkflowRequest = { ...asked, storePath: prepared.source.storePath };
    try {
      return await this.deps.commit(() => {
        const entry = this.checkedEntry(prepared, request);
        const workflows = [...this.snapshotEntries().filter((w) => w.name !== entry.name), snapshotEntryOf(entry, request)];
        return { workflows: workflows.sort(byName), apply: () => this.put(entry, request) };
      });
    } catch (error) {
      // Outside the model manager's turn: taking a model back waits for it.
      await this.takeBack(prepared.added, prepared.name ?? prepared.source.name);
      throw error;
    }
  }

  /** The registry entry of a prepared workflow, validated and planned against what is registered now. */
  private checkedEntry(prepared: PreparedWorkflow, request: RegisterWorkflowRequest): RegisteredWorkflow {
    const { source, localHandlers, handlerModels } = prepared;
    const { plan, warnings } =
      localHandlers !== undefined
        ? loadWorkflow(prepared.text, { file: source.name, catalog: withLocalHandlers(this.deps.catalog, localHandlers) })
        : loadWorkflow(prepared.text, { file: source.name, catalog: this.deps.catalog, ...(request.name !== undefined ? { name: request.name } : {}) });
    const name = request.name ?? plan.workflow.name;
    checkWorkflowNameFree(name, this.deps.modelNamed);
    for (const model of handlerModels ?? []) checkHandlerModelRegistered(model, name, this.deps.modelNamed);
    const ownModels = unionOfModels(this.deps.registry.find(name)?.ownModels, request.ownModels, prepared.added);
    const entry: RegisteredWorkflow = {
      name,
      version: plan.workflow.version,
      plan,
      warnings,
      url: request.url,
      file: source.file,
      text: prepared.text,
      registeredAt: new Date(),
      ...(localHandlers !== undefined ? { localHandlers } : {}),
      ...(handlerModels !== undefined ? { handlerModels } : {}),
      ...(ownModels.length > 0 ? { ownModels } : {}),
    };
    checkCallersAccept(entry, this.deps.registry.callers(name), this.deps.catalog);
    return entry;
  }

  /** Registers `entry`, replacing the workflow of its name, and logs it with its warnings. */
  private put(entry: RegisteredWorkflow, request: RegisterWorkflowRequest): RegisteredWorkflow {
    const previous = this.deps.registry.put(entry);
    this.requests.set(entry.name, request);
    this.deps.logger.info(previous ? 'workflow replaced' : 'workflow registered', {
      workflow: entry.name,
      version: entry.version,
      ...(previous ? { previousVersion: previous.version } : {}),
      warnings: entry.warnings.length,
    });
    for (const warning of entry.warnings) this.deps.logger.warn('workflow warning', { workflow: entry.name, warning: formatWorkflowProblem(warning) });
    return entry;
  }
}
