import { editDistance } from './edit-distance.js';

/** The known name closest to `name`, when it is close enough to be a likely typo. */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  // A third of the length (at least 1, at most 3) keeps suggestions to typos, not unrelated names.
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // The distance is at least the difference in length: a long name is not compared character by character.
    if (Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * A hint for an unknown name: `did you mean \`x\`?` when one is close, else the list of what exists
 * (`what` names the kind, `nodes`), or `none` when nothing does.
 */
export function suggestName(name: string, known: readonly string[], what: string): string {
  const close = closestName(name, known);
  if (close !== undefined) return `did you mean \`${close}\`?`;
  if (known.length === 0) return `there are no ${what}`;
  return `known ${what}: ${known.join(', ')}`;
}
