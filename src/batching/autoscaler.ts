import type { Logger } from '../sdk/logging/logger.js';

/** How the worker count follows the load between `min` and `max`; every field is filled in. */
export interface AutoscaleSettings {
  readonly enabled: boolean;
  /** How often the load is looked at, in milliseconds. */
  readonly intervalMs: number;
  /** Queue time, in milliseconds, above which a worker is wanted. */
  readonly scaleUpQueueMs: number;
  /** Looks in a row above `scaleUpQueueMs` before a worker is added. */
  readonly scaleUpAfter: number;
  /** Idle time, in milliseconds, after which a worker is removed. */
  readonly scaleDownIdleMs: number;
  /** Time after a decision, in milliseconds, before the next one. */
  readonly cooldownMs: number;
}

/** One scaling decision, as `GET /models/{m}` shows it. */
export interface AutoscaleDecision {
  readonly at: string;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
}

/** What the autoscaler looks at and acts on. */
export interface AutoscaleTarget {
  /** Current worker bounds. */
  bounds(): { readonly min: number; readonly max: number };
  /** Workers asked for now. */
  current(): number;
  /** Mean queue time over the last look, in milliseconds. */
  queueTimeMs(): number;
  /** Mean busy fraction of the workers over the last look (0..1). */
  utilization(): number;
  /** Requests queued or running now: the workers are not idle while there are any. */
  pending(): number;
  /** Sets the worker count. */
  scaleTo(count: number): void;
}

/** Utilisation under which the workers count as idle. */
const IDLE_UTILIZATION = 0.02;
/**
 * Queue time, in milliseconds, under which no request counts as waiting: one that found a worker free
 * still spends some microseconds between arrival and its run, so a light load never reads as zero.
 */
const IDLE_QUEUE_MS = 1;
/** Decisions kept for the management API. */
const KEPT_DECISIONS = 20;

/**
 * Moves the worker count between `min` and `max` from the load, with hysteresis: a worker is added when
 * the queue time stays above `scaleUpQueueMs` for `scaleUpAfter` looks in a row, one is removed after the
 * workers were idle for `scaleDownIdleMs`, and no decision follows another within `cooldownMs`. Every
 * decision is logged and kept. With a `min` of zero, the last worker leaves once idle and the next
 * request brings one back ({@link wake}).
 */
export class Autoscaler {
  private above = 0;
  private idleSince: number | undefined;
  private lastDecisionAt = -Infinity;
  private readonly kept: AutoscaleDecision[] = [];
  private enabled: boolean;

  constructor(
    private readonly settings: AutoscaleSettings,
    private readonly target: AutoscaleTarget,
    private readonly logger: Logger,
  ) {
    this.enabled = settings.enabled;
  }

  /**
   * Turns decisions on or off (the worker bounds changed). Off, it still watches the load, so that once
   * turned on it acts on what it saw.
   */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
  }

  /** The latest decisions, oldest first. */
  decisions(): readonly AutoscaleDecision[] {
    return [...this.kept];
  }

  /** One look at the load; `now` in milliseconds (`performance.now()`). */
  tick(now: number): void {
    const queueMs = this.target.queueTimeMs();
    const utilization = this.target.utilization();
    this.above = queueMs > this.settings.scaleUpQueueMs ? this.above + 1 : 0;
    if (utilization <= IDLE_UTILIZATION && queueMs < IDLE_QUEUE_MS && this.target.pending() === 0) this.idleSince ??= now;
    else this.idleSince = undefined;
    if (!this.enabled || now - this.lastDecisionAt < this.settings.cooldownMs) return;
    const { min, max } = this.target.bounds();
    const current = this.target.current();
    if (this.above >= this.settings.scaleUpAfter && current < max) {
      this.decide(now, current, current + 1, `queue time ${queueMs.toFixed(1)} ms stayed above ${this.settings.scaleUpQueueMs} ms for ${this.above} looks`);
    } else if (this.idleSince !== undefined && now - this.idleSince >= this.settings.scaleDownIdleMs && current > min) {
      this.decide(now, current, current - 1, `workers idle for ${Math.round(now - this.idleSince)} ms`);
    }
  }

  /**
   * A request arrived while no worker runs: with autoscaling on and room above zero, one worker is added
   * at once (cooldown or not: the request waits for it) and true is answered, so the request queues for
   * it; false when the request cannot get a worker this way. True, adding nothing, when a worker is asked
   * for already. `now` in milliseconds (`performance.now()`).
   */
  wake(now: number): boolean {
    if (this.target.current() > 0) return true;
    if (!this.canWake()) return false;
    this.decide(now, 0, 1, 'a request arrived while no worker ran');
    return true;
  }

  /** Whether {@link wake} would add a worker to none: autoscaling is on and `max` leaves room above zero. */
  canWake(): boolean {
    return this.enabled && this.target.bounds().max > 0;
  }

  private decide(now: number, from: number, to: number, reason: string): void {
    this.target.scaleTo(to);
    this.lastDecisionAt = now;
    this.above = 0;
    this.idleSince = undefined;
    const decision = { at: new Date().toISOString(), from, to, reason };
    this.kept.push(decision);
    if (this.kept.length > KEPT_DECISIONS) this.kept.shift();
    this.logger.info('autoscale', decision);
  }
}
