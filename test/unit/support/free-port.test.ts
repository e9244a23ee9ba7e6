import { describe, expect, it } from '@jest/globals';
import { freePort } from '../../support/cli-process.js';

describe('freePort', () => {
  it('never hands out the same port twice in one process, though the system may pick a freed port again', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(50);
  });
});
