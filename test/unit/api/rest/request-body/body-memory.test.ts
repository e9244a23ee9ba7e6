import { describe, expect, it } from '@jest/globals';
import { BodyMemory } from '../../../../../src/api/rest/request-body/body-memory.js';

describe('BodyMemory', () => {
  it('hands out exactly the length asked for', () => {
    expect(new BodyMemory().allocate(1_300).length).toBe(1_300);
  });

  it.each([0, 1, 5, 7, 8, 133])('puts byte %i of a small body on an 8-byte boundary of its ArrayBuffer', (alignAt) => {
    const memory = new BodyMemory();
    memory.allocate(3);
    const body = memory.allocate(200, alignAt);
    expect((body.byteOffset + alignAt) % 8).toBe(0);
  });

  it('cuts small bodies from one shared buffer without overlap', () => {
    const memory = new BodyMemory();
    const first = memory.allocate(100, 3);
    const second = memory.allocate(100, 5);
    expect(second.buffer).toBe(first.buffer);
    first.fill(1);
    second.fill(2);
    expect(first.every((byte) => byte === 1)).toBe(true);
    expect(second.byteOffset).toBeGreaterThanOrEqual(first.byteOffset + first.length);
  });

  it('starts a new shared buffer when the current one is full', () => {
    const memory = new BodyMemory();
    const first = memory.allocate(10_000);
    const bodies = Array.from({ length: 8 }, () => memory.allocate(10_000));
    expect(bodies.some((body) => body.buffer !== first.buffer)).toBe(true);
    for (const body of bodies) expect(body.length).toBe(10_000);
  });

  it('gives a large body memory of its own, aligned', () => {
    const memory = new BodyMemory();
    const small = memory.allocate(10);
    const large = memory.allocate(100_000, 3);
    expect(large.buffer).not.toBe(small.buffer);
    expect(large.length).toBe(100_000);
    expect((large.byteOffset + 3) % 8).toBe(0);
  });
});
