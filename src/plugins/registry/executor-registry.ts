import type { Executor } from '../../sdk/executor/executor.js';
import { NamedRegistry } from './named-registry.js';

/** Executors by name (the `executor` key of model manifests). */
export class ExecutorRegistry extends NamedRegistry<Executor> {
  constructor() {
    super('executor');
  }
}
