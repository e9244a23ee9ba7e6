import { describe, expect, it } from '@jest/globals';
import { benchUsage, readBenchArgs } from '../../../bench/bench-args.js';

const OPTIONS = {
  duration: { type: 'string', default: '5' },
  split: { type: 'boolean', default: false },
  json: { type: 'string' },
} as const;

describe('benchmark arguments', () => {
  it('parses known options, with defaults for those not given', () => {
    expect(readBenchArgs(['--duration', '2', '--json', 'out.json'], OPTIONS)).toEqual({ values: { duration: '2', split: false, json: 'out.json' } });
  });

  it('asks for the usage on --help or -h, whatever else is given', () => {
    expect(readBenchArgs(['--bogus', '--help'], OPTIONS)).toEqual({ help: true });
    expect(readBenchArgs(['-h'], OPTIONS)).toEqual({ help: true });
  });

  it('says which option is unknown', () => {
    expect(readBenchArgs(['--bogus'], OPTIONS)).toEqual({ problem: expect.stringContaining("Unknown option '--bogus'") as unknown });
  });

  it('says which option lacks its value', () => {
    expect(readBenchArgs(['--duration'], OPTIONS)).toEqual({ problem: expect.stringContaining("Option '--duration <value>' argument missing") as unknown });
  });

  it('lists every option with its default in the usage', () => {
    expect(benchUsage('npm run bench:x --', OPTIONS)).toBe(
      'usage: npm run bench:x -- [options]\n\noptions:\n' +
        '  --duration VALUE             (default: 5)\n' +
        '  --split                      (default: false)\n' +
        '  --json VALUE\n' +
        '  --help                       this text\n',
    );
  });
});
