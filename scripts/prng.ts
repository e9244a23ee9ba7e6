/**
 * A seeded pseudo-random generator (mulberry32): a 32-bit state advanced with integer arithmetic only,
 * so the same seed gives the same sequence on every platform. Each call returns a number in [0, 1).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `count` numbers drawn uniformly from [-limit, limit) and rounded to float32. */
export function uniformFloat32(random: () => number, count: number, limit: number): Float32Array {
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) values[i] = (2 * random() - 1) * limit;
  return values;
}
