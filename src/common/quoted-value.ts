/** The most of a value a message quotes, in characters. */
const MAX_QUOTED_CHARS = 60;

/**
 * `value` quoted for an error message (as JSON), cut short past {@link MAX_QUOTED_CHARS} characters with
 * its full length: the whole of a name thousands of characters long helps nobody.
 */
export function quotedValue(value: string): string {
  if (value.length <= MAX_QUOTED_CHARS) return JSON.stringify(value);
  return `${JSON.stringify(`${value.slice(0, MAX_QUOTED_CHARS - 3)}...`)} (${value.length} characters)`;
}
