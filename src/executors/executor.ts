/** The executor contract lives in the plugin SDK: the GPU executor plugin implements the same interface. */
export type { Batch, BatchItem, ExecutionInstance, Executor, ExecutorLoadContext, ExecutorModel, JobResult } from '../sdk/executor/executor.js';
