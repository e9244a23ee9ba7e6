import { describe, expect, it } from '@jest/globals';
import { DownloadProgress } from '../../../../src/model-store/index.js';
import type { LogFields, Logger } from '../../../../src/sdk/logging/logger.js';

/** A logger that keeps each line as its message and fields. */
function progressLines(): { lines: Record<string, unknown>[]; logger: Logger } {
  const lines: Record<string, unknown>[] = [];
  const logger: Logger = {
    debug: (msg: string, fields?: LogFields) => lines.push({ msg, ...fields }),
    info: (msg: string, fields?: LogFields) => lines.push({ msg, ...fields }),
    warn: (msg: string, fields?: LogFields) => lines.push({ msg, ...fields }),
    error: (msg: string, fields?: LogFields) => lines.push({ msg, ...fields }),
    child: () => logger,
  };
  return { lines, logger };
}

describe('DownloadProgress', () => {
  it('logs bytes, percent and rate once the interval has passed, and not before', () => {
    const { lines, logger } = progressLines();
    let now = 0;
    const progress = new DownloadProgress(logger, 's3://models/iris/', 1000, 5000, () => now);
    now = 4999;
    progress.add(100);
    now = 5000;
    progress.add(150);
    expect(lines.map((line) => line.msg)).toEqual(['model source download started', 'model source downloading']);
    expect(lines[1]).toMatchObject({ source: 's3://models/iris/', bytes: 250, totalBytes: 1000, percent: 25, bytesPerSecond: 50 });
  });

  it('logs the finished download at 100 percent', () => {
    const { lines, logger } = progressLines();
    let now = 0;
    const progress = new DownloadProgress(logger, 's3://models/iris/', 400, 5000, () => now);
    progress.add(400);
    now = 2000;
    progress.finish();
    expect(lines.at(-1)).toMatchObject({ msg: 'model source downloaded', bytes: 400, percent: 100, bytesPerSecond: 200 });
  });
});
