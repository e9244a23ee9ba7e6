import { describe, expect, it } from '@jest/globals';
import { parseBenchOptions } from '../../../bench/bench-options.js';

describe('parseBenchOptions', () => {
  it('defaults to both models, every setup, c = 1, 16, 64, 5 s runs, three rounds and Sluice logging to a file', () => {
    expect(parseBenchOptions([])).toEqual({
      durationSeconds: 5,
      warmupSeconds: 2,
      rounds: 3,
      concurrencies: [1, 16, 64],
      models: ['mlp', 'cnn'],
      setups: ['a', 'b', 'c', 'd'],
      serverLog: 'file',
    });
  });

  it('takes shorter runs, fewer models and setups, a log pipe and a JSON file', () => {
    expect(
      parseBenchOptions(['--duration', '0.5', '--rounds', '1', '--concurrency', '16,1,16', '--models', 'cnn', '--setups', 'd,b', '--max-batch-delay', '0.2', '--server-log', 'pipe', '--json', 'out.json']),
    ).toEqual({
      durationSeconds: 0.5,
      warmupSeconds: 2,
      rounds: 1,
      concurrencies: [16, 1],
      models: ['cnn'],
      setups: ['b', 'd'],
      maxBatchDelayMs: 0.2,
      serverLog: 'pipe',
      json: 'out.json',
    });
  });

  it('answers help', () => {
    expect(parseBenchOptions(['--help'])).toBe('help');
  });

  it.each([
    [['--duration', '0'], /--duration must be a positive number/],
    [['--rounds', '0'], /--rounds must be a whole number ≥ 1, got "0"/],
    [['--rounds', '2.5'], /--rounds must be a whole number ≥ 1, got "2.5"/],
    [['--rounds='], /--rounds must be a whole number ≥ 1, got ""/],
    [['--concurrency', '1,x'], /--concurrency: "x" is not a positive integer/],
    [['--concurrency', '1,,2'], /comma-separated list/],
    [['--models', 'mlp,resnet'], /--models: unknown resnet; choose from mlp, cnn/],
    [['--setups', 'e'], /--setups: unknown e/],
    [['--max-batch-delay=-1'], /--max-batch-delay must be a number of milliseconds/],
    [['--server-log', 'stdout'], /--server-log must be one of file, pipe, got "stdout"/],
    [['--verbose'], /verbose/],
  ])('refuses %j', (args, message) => {
    expect(() => parseBenchOptions(args)).toThrow(message);
  });
});
