import { shortenedText } from '../../sdk/text/shortened-text.js';

/** A short rendering of a document value for messages: strings quoted and cut, containers by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortenedText(value));
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'a mapping';
  return String(value);
}
