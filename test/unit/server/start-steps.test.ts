import { describe, expect, it } from '@jest/globals';
import { runStartSteps, type StartStep } from '../../../src/server/start-steps.js';

/** A step that notes its start and stop in `log`, and fails its start when `fails` is set. */
function step(name: string, log: string[], fails = false): StartStep {
  return {
    name,
    start: () => {
      log.push(`start ${name}`);
      if (fails) throw new Error(`${name} failed`);
    },
    stop: () => {
      log.push(`stop ${name}`);
      return Promise.resolve();
    },
  };
}

describe('runStartSteps', () => {
  it('starts every step in order and stops none when all start', async () => {
    const log: string[] = [];
    await runStartSteps([step('a', log), step('b', log), step('c', log)]);
    expect(log).toEqual(['start a', 'start b', 'start c']);
  });

  it('stops the failed step and those before it, last started first, and throws the failure', async () => {
    const log: string[] = [];
    await expect(runStartSteps([step('a', log), step('b', log), step('c', log, true), step('d', log)])).rejects.toThrow('c failed');
    expect(log).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('passes over steps that leave nothing to stop', async () => {
    const log: string[] = [];
    const check: StartStep = { name: 'check', start: () => undefined };
    await expect(runStartSteps([step('a', log), check, step('b', log, true)])).rejects.toThrow('b failed');
    expect(log).toEqual(['start a', 'start b', 'stop b', 'stop a']);
  });
});
