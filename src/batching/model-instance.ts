/** What an instance is doing: idle instances take work, retiring ones finish their run and leave. */
export type InstanceState = 'idle' | 'busy' | 'retiring';

/** A public, JSON-safe view of an instance for the management API. */
export interface InstanceInfo {
  readonly id: string;
  readonly state: InstanceState;
  readonly startTime: string;
  readonly jobsServed: number;
}

/**
 * One execution slot of a model version. Instances of a version share its loaded session (ORT runs
 * concurrently on one session), so an instance costs a slot, not a copy of the weights.
 */
export class ModelInstance {
  state: InstanceState = 'idle';
  jobsServed = 0;
  private readonly startedAt = new Date();

  constructor(readonly id: string) {}

  /** The management view of this instance. */
  info(): InstanceInfo {
    return { id: this.id, state: this.state, startTime: this.startedAt.toISOString(), jobsServed: this.jobsServed };
  }
}
