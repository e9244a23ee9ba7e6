/**
 * `text` as an error message quotes it: whole up to `max` characters, else its first `max - 3` and `...`,
 * so that a value sent to probe the server cannot make its answer as long as itself.
 */
export function shortenedText(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
