/**
 * Orders version strings naturally: numeric parts compare as numbers (`1.10` > `1.9`), other parts as
 * text. Used to pick the default version (the highest) when a store holds several.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string): string[] => v.split(/[.\-_]/);
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    const diff = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}
