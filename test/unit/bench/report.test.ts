import { describe, expect, it } from '@jest/globals';
import { busyMachineWarnings, formatCount, formatInProcessTable, formatRatios, formatResultsTable, formatTable, formatTargets } from '../../../bench/report.js';
import { inProcessRun, loadRun, results } from './bench-fixtures.js';

describe('formatTable', () => {
  it('pads columns to their widest cell and underlines the header', () => {
    expect(formatTable(['a', 'bb'], [['long', '1'], ['x', '22']])).toBe('a     bb\n----  --\nlong  1\nx     22\n');
  });
});

describe('formatCount', () => {
  it('rounds and separates thousands', () => {
    expect(formatCount(18_155.4)).toBe('18 155');
    expect(formatCount(603_351)).toBe('603 351');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(Number.NaN)).toBe('-');
  });
});

describe('formatResultsTable', () => {
  const table = formatResultsTable(
    results(
      [
        loadRun({ setup: 'b', model: 'mlp', concurrency: 1, requestsPerSecond: 15_142, p50Us: 61.4, p99Us: 180 }),
        loadRun({ setup: 'd', model: 'mlp', concurrency: 16, requestsPerSecond: 20_000, non2xx: 1200, errors: 34 }),
      ],
      [inProcessRun('mlp', 1, 40_000), inProcessRun('mlp', 128, 600_000)],
      ['mlp'],
    ),
  );
  const lines = table.split('\n');

  it('has the columns setup, model, c, req/s, p50 µs, p99 µs, errors', () => {
    expect(lines[0]?.split(/\s{2,}/)).toEqual(['setup', 'model', 'c', 'req/s', 'p50 µs', 'p99 µs', 'errors']);
  });

  it('shows setup a as its best batch, without latencies', () => {
    expect(lines[2]?.split(/\s{2,}/)).toEqual(['a in-process session.run', 'mlp', 'batch 128', '600 000', '-', '-', '0']);
  });

  it('shows each measured server run', () => {
    expect(lines[3]?.split(/\s{2,}/)).toEqual(['b hand-rolled Fastify', 'mlp', '1', '15 142', '61', '180', '0']);
  });

  it('makes failed requests stand out', () => {
    expect(lines[4]?.split(/\s{2,}/).at(-1)).toBe('1 234 !');
  });
});

describe('formatRatios', () => {
  it('relates the setups of each model and concurrency', () => {
    const table = formatRatios(
      results(
        [
          loadRun({ setup: 'b', model: 'cnn', concurrency: 16, requestsPerSecond: 4000, p50Us: 300 }),
          loadRun({ setup: 'c', model: 'cnn', concurrency: 16, requestsPerSecond: 2000, p50Us: 345 }),
          loadRun({ setup: 'd', model: 'cnn', concurrency: 16, requestsPerSecond: 5000, p50Us: 690 }),
        ],
        [inProcessRun('cnn', 64, 6250)],
        ['cnn'],
      ),
    );
    expect(table.split('\n')[2]?.split(/\s{2,}/)).toEqual(['cnn', '16', '1.25', '0.50', '2.50', '0.80', '0.64', '+45', '2.00']);
  });

  it('leaves out what was not measured', () => {
    const table = formatRatios(results([loadRun({ setup: 'c', model: 'mlp', concurrency: 1 })], [], ['mlp']));
    expect(table.split('\n')[2]?.split(/\s{2,}/)).toEqual(['mlp', '1', '-', '-', '-', '-', '-', '-', '-']);
  });
});

describe('formatInProcessTable', () => {
  it('lists every batch size, with ORT’s own thread choice as default where the cores were not counted', () => {
    const lines = formatInProcessTable([inProcessRun('cnn', 8, 4000), { ...inProcessRun('cnn', 8, 3000), intraOpNumThreads: 1 }]).split('\n');
    expect(lines[2]?.split(/\s{2,}/)).toEqual(['cnn', '8', 'default (ONNX Runtime)', '4 000', '2 000']);
    expect(lines[3]?.split(/\s{2,}/)).toEqual(['cnn', '8', '1', '3 000', '2 667']);
  });

  it('shows how many threads the default gave', () => {
    const lines = formatInProcessTable([{ ...inProcessRun('cnn', 8, 4000), threadsUsed: 2 }]).split('\n');
    expect(lines[2]?.split(/\s{2,}/)[2]).toBe('default (2)');
  });
});

describe('formatTargets', () => {
  it('prints one line per target with its status first', () => {
    expect(formatTargets([{ target: 'mlp c=16: x', status: 'PASS', detail: 'd/b = 1.10' }])).toBe('PASS  mlp c=16: x: d/b = 1.10\n');
  });
});

describe('busyMachineWarnings', () => {
  it('is empty when nothing else used the CPUs', () => {
    expect(busyMachineWarnings(results([loadRun({ setup: 'b', model: 'mlp', concurrency: 1, otherCpu: 0.02 })]))).toBe('');
  });

  it('names the runs other processes competed with', () => {
    const text = busyMachineWarnings({
      ...results([loadRun({ setup: 'd', model: 'cnn', concurrency: 16, otherCpu: 0.5 })], [{ ...inProcessRun('mlp', 8, 1000), otherCpu: 1.25 }]),
      otherCpuAtStart: 0.3,
    });
    expect(text.split('\n')).toEqual([
      'warning: other processes used the CPUs during these runs; their figures are skewed',
      '  before the start: 0.30 cores',
      '  a mlp batch 8: 1.25 cores',
      '  d cnn c=16: 0.50 cores',
      '',
    ]);
  });

  it('names the round of a disturbed run when there were several', () => {
    const load = [loadRun({ setup: 'd', model: 'cnn', concurrency: 16, round: 0 }), loadRun({ setup: 'd', model: 'cnn', concurrency: 16, round: 1, otherCpu: 0.5 })];
    expect(busyMachineWarnings(results(load, [], ['cnn'], 2)).split('\n')[1]).toBe('  d cnn c=16, round 2: 0.50 cores');
  });
});

describe('the tables over several rounds', () => {
  const load = [0, 1, 2].flatMap((round) => [
    loadRun({ setup: 'b', model: 'mlp', concurrency: 16, round, requestsPerSecond: [10_000, 14_000, 12_000][round] ?? 0 }),
    loadRun({ setup: 'd', model: 'mlp', concurrency: 16, round, requestsPerSecond: [12_000, 9_000, 15_000][round] ?? 0 }),
  ]);
  const threeRounds = results(load, [], ['mlp'], 3);

  it('show each setup once, with its median over the rounds', () => {
    const rows = formatResultsTable(threeRounds).split('\n').slice(2, -1);
    expect(rows.map((row) => row.split(/\s{2,}/).slice(0, 4))).toEqual([
      ['b hand-rolled Fastify', 'mlp', '16', '12 000'],
      ['d Sluice, dynamic batching', 'mlp', '16', '12 000'],
    ]);
  });

  it('relate the medians', () => {
    expect(formatRatios(threeRounds).split('\n')[2]?.split(/\s{2,}/).slice(0, 3)).toEqual(['mlp', '16', '1.00']);
  });
});
