/** Index of the CTC blank class in PP-OCR recognisers. */
export const CTC_BLANK = 0;

/** The classes a greedy CTC decode keeps for one line, and how sure the model was of them. */
export interface CtcPath {
  /** Class indices in order, repeats collapsed and blanks removed. */
  readonly classes: readonly number[];
  /** Mean of the winning value of each kept step; 0 when nothing was kept. */
  readonly score: number;
}

/**
 * Greedy CTC decoding of one line: `steps` rows of `classCount` values (probabilities or logits) starting
 * at `offset` in `values`. Takes the best class at each step, merges runs of the same class into one
 * (a blank between two equal classes keeps both), and drops blanks. Ties go to the lower class index.
 */
export function greedyCtc(values: ArrayLike<number>, offset: number, steps: number, classCount: number, blank = CTC_BLANK): CtcPath {
  const classes: number[] = [];
  let total = 0;
  let previous = -1;
  for (let step = 0; step < steps; step++) {
    const row = offset + step * classCount;
    let best = 0;
    let bestValue = values[row] ?? 0;
    for (let c = 1; c < classCount; c++) {
      const value = values[row + c] ?? 0;
      if (value > bestValue) {
        best = c;
        bestValue = value;
      }
    }
    if (best !== blank && best !== previous) {
      classes.push(best);
      total += bestValue;
    }
    previous = best;
  }
  return { classes, score: classes.length === 0 ? 0 : total / classes.length };
}
