import { describe, expect, it } from '@jest/globals';
import { Autoscaler, type AutoscaleSettings, type AutoscaleTarget } from '../../../src/batching/autoscaler.js';
import { RecordingLogger } from '../../support/recording-logger.js';

const SETTINGS: AutoscaleSettings = {
  enabled: true,
  intervalMs: 1000,
  scaleUpQueueMs: 100,
  scaleUpAfter: 3,
  scaleDownIdleMs: 5000,
  cooldownMs: 10_000,
};

/** A worker count the autoscaler moves, with the load the test sets. */
class Target implements AutoscaleTarget {
  queueMs = 0;
  busy = 0;
  waiting = 0;
  min = 1;
  max = 4;
  readonly scaledTo: number[] = [];

  constructor(public count = 1) {}

  bounds(): { min: number; max: number } {
    return { min: this.min, max: this.max };
  }

  current(): number {
    return this.count;
  }

  queueTimeMs(): number {
    return this.queueMs;
  }

  utilization(): number {
    return this.busy;
  }

  pending(): number {
    return this.waiting;
  }

  scaleTo(count: number): void {
    this.scaledTo.push(count);
    this.count = count;
  }
}

function setup(settings: Partial<AutoscaleSettings> = {}, count = 1): { target: Target; logger: RecordingLogger; autoscaler: Autoscaler } {
  const target = new Target(count);
  const logger = new RecordingLogger();
  return { target, logger, autoscaler: new Autoscaler({ ...SETTINGS, ...settings }, target, logger) };
}

/** Ticks once a second at `from`, `from + 1000`, … up to `to` inclusive. */
function tickEverySecond(autoscaler: Autoscaler, from: number, to: number): void {
  for (let t = from; t <= to; t += 1000) autoscaler.tick(t);
}

describe('Autoscaler: scaling up', () => {
  it('adds a worker after scaleUpAfter looks above the threshold', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 3000);
    expect(target.scaledTo).toEqual([2]);
  });

  it('does not add a worker before scaleUpAfter looks', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 2000);
    expect(target.scaledTo).toEqual([]);
  });

  it('counts only looks in a row', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 2000);
    target.queueMs = 50;
    autoscaler.tick(3000);
    target.queueMs = 150;
    tickEverySecond(autoscaler, 4000, 5000);
    expect(target.scaledTo).toEqual([]);
  });

  it('does not count a queue time equal to the threshold as above it', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 100;
    tickEverySecond(autoscaler, 1000, 5000);
    expect(target.scaledTo).toEqual([]);
  });

  it('does not go above max', () => {
    const { target, autoscaler } = setup({}, 4);
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 5000);
    expect(target.scaledTo).toEqual([]);
  });
});

describe('Autoscaler: cooldown', () => {
  it('makes no decision within cooldownMs of the last one', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 12_000);
    expect(target.scaledTo).toEqual([2]);
  });

  it('decides again once cooldownMs passed', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 13_000);
    expect(target.scaledTo).toEqual([2, 3]);
  });
});

describe('Autoscaler: scaling down', () => {
  it('removes a worker once the workers were idle for scaleDownIdleMs', () => {
    const { target, autoscaler } = setup({}, 3);
    tickEverySecond(autoscaler, 1000, 6000);
    expect(target.scaledTo).toEqual([2]);
  });

  it('does not remove a worker before scaleDownIdleMs', () => {
    const { target, autoscaler } = setup({}, 3);
    tickEverySecond(autoscaler, 1000, 5000);
    expect(target.scaledTo).toEqual([]);
  });

  it('does not count workers with work as idle', () => {
    const { target, autoscaler } = setup({}, 3);
    target.busy = 0.5;
    tickEverySecond(autoscaler, 1000, 10_000);
    expect(target.scaledTo).toEqual([]);
  });

  it('counts workers as idle under a light load whose requests ran at once', () => {
    const { target, autoscaler } = setup({}, 3);
    target.busy = 0.001;
    target.queueMs = 0.02;
    tickEverySecond(autoscaler, 1000, 6000);
    expect(target.scaledTo).toEqual([2]);
  });

  it('does not count workers as idle while requests wait', () => {
    const { target, autoscaler } = setup({}, 3);
    target.queueMs = 5;
    tickEverySecond(autoscaler, 1000, 10_000);
    expect(target.scaledTo).toEqual([]);
  });

  it('starts the idle time over when work comes', () => {
    const { target, autoscaler } = setup({}, 3);
    tickEverySecond(autoscaler, 1000, 4000);
    target.busy = 0.5;
    autoscaler.tick(5000);
    target.busy = 0;
    tickEverySecond(autoscaler, 6000, 10_000);
    expect(target.scaledTo).toEqual([]);
  });

  it('does not go below min', () => {
    const { target, autoscaler } = setup({}, 1);
    tickEverySecond(autoscaler, 1000, 20_000);
    expect(target.scaledTo).toEqual([]);
  });
});

describe('Autoscaler: decisions', () => {
  it('keeps each decision with its reason', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 3000);
    expect(autoscaler.decisions()).toEqual([
      { at: expect.any(String), from: 1, to: 2, reason: 'queue time 150.0 ms stayed above 100 ms for 3 looks' },
    ]);
  });

  it('stamps a decision with an ISO time', () => {
    const { target, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 3000);
    const [decision] = autoscaler.decisions();
    expect(new Date(decision!.at).toISOString()).toBe(decision!.at);
  });

  it('gives the idle time as the reason to scale down', () => {
    const { autoscaler } = setup({}, 3);
    tickEverySecond(autoscaler, 1000, 6000);
    expect(autoscaler.decisions().map((d) => [d.from, d.to, d.reason])).toEqual([[3, 2, 'workers idle for 5000 ms']]);
  });

  it('logs each decision', () => {
    const { target, logger, autoscaler } = setup();
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 3000);
    expect(logger.lines).toEqual([
      { level: 'info', message: 'autoscale', fields: { at: expect.any(String), from: 1, to: 2, reason: 'queue time 150.0 ms stayed above 100 ms for 3 looks' } },
    ]);
  });

  it('keeps the latest twenty decisions, oldest first', () => {
    const { target, autoscaler } = setup({ scaleUpAfter: 1, cooldownMs: 0 }, 0);
    target.max = 100;
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 25_000);
    expect(autoscaler.decisions().map((d) => d.to)).toEqual(Array.from({ length: 20 }, (_, i) => i + 6));
  });
});

describe('Autoscaler: from zero', () => {
  it('adds a worker at once when a request arrives while none runs, cooldown or not', () => {
    const { target, autoscaler } = setup({}, 0);
    target.min = 0;
    autoscaler.tick(1000);
    expect({ woken: autoscaler.wake(1500), scaledTo: target.scaledTo, reason: autoscaler.decisions()[0]?.reason }).toEqual({
      woken: true,
      scaledTo: [1],
      reason: 'a request arrived while no worker ran',
    });
  });

  it('adds nothing when a worker is asked for already', () => {
    const { target, autoscaler } = setup({}, 1);
    expect({ woken: autoscaler.wake(1000), scaledTo: target.scaledTo }).toEqual({ woken: true, scaledTo: [] });
  });

  it('adds no worker when autoscaling is off', () => {
    const { target, autoscaler } = setup({ enabled: false }, 0);
    target.min = 0;
    expect({ woken: autoscaler.wake(1000), scaledTo: target.scaledTo }).toEqual({ woken: false, scaledTo: [] });
  });

  it('adds no worker when max is zero', () => {
    const { target, autoscaler } = setup({}, 0);
    target.min = 0;
    target.max = 0;
    expect({ woken: autoscaler.wake(1000), scaledTo: target.scaledTo }).toEqual({ woken: false, scaledTo: [] });
  });

  it('removes the last worker once idle when min is zero', () => {
    const { target, autoscaler } = setup({ cooldownMs: 0 }, 1);
    target.min = 0;
    tickEverySecond(autoscaler, 1000, 7000);
    expect(target.scaledTo).toEqual([0]);
  });

  it('does not count workers as idle while a request is queued, however short its wait so far', () => {
    const { target, autoscaler } = setup({ cooldownMs: 0 }, 1);
    target.min = 0;
    target.waiting = 1;
    tickEverySecond(autoscaler, 1000, 20_000);
    expect(target.scaledTo).toEqual([]);
  });
});

describe('Autoscaler: disabled', () => {
  it('does not scale up', () => {
    const { target, autoscaler } = setup({ enabled: false });
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 20_000);
    expect(target.scaledTo).toEqual([]);
  });

  it('does not scale down', () => {
    const { target, autoscaler } = setup({ enabled: false }, 3);
    tickEverySecond(autoscaler, 1000, 20_000);
    expect([target.scaledTo, autoscaler.decisions()]).toEqual([[], []]);
  });
});

describe('Autoscaler: turned on and off', () => {
  it('adds a worker once turned on', () => {
    const { target, autoscaler } = setup({ enabled: false });
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 3000);
    autoscaler.setEnabled(true);
    tickEverySecond(autoscaler, 4000, 6000);
    expect(target.scaledTo).toEqual([2]);
  });

  it('makes no decision once turned off', () => {
    const { target, autoscaler } = setup();
    autoscaler.setEnabled(false);
    target.queueMs = 150;
    tickEverySecond(autoscaler, 1000, 20_000);
    expect(target.scaledTo).toEqual([]);
  });
});
