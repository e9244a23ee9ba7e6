/** Longest name or value a problem quotes between backticks: enough to recognise it. */
export const MAX_QUOTED_CHARS = 40;

/** Longest file name, key path, message or hint of one problem. */
export const MAX_PROBLEM_TEXT_CHARS = 300;

/** `text` cut to at most `max` characters, ending with `…` when cut (never inside a surrogate pair). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * `text` with every backtick-quoted span cut to {@link MAX_QUOTED_CHARS} and then the whole cut to
 * {@link MAX_PROBLEM_TEXT_CHARS}: a problem about a huge key or value still reads in one short line.
 */
export function clipProblemText(text: string): string {
  const quoted = text.replace(/`([^`]*)`/g, (span, inner: string) => (inner.length > MAX_QUOTED_CHARS ? `\`${clipText(inner, MAX_QUOTED_CHARS)}\`` : span));
  return clipText(quoted, MAX_PROBLEM_TEXT_CHARS);
}
