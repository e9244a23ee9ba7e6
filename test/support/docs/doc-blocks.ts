
/** How a marker comment before a fence declares its block: checked whole, a deliberate fragment, or not checked. */
export type BlockMarkerKind = 'example' | 'fragment' | 'not-checked';

/** `<!-- example: config -->`, `<!-- fragment: model -->` or `<!-- not-checked: why -->`, just before a fence. */
export interface BlockMarker {
  readonly kind: BlockMarkerKind;
  /** The kind of document for `example` and `fragment`; the reason for `not-checked`. */
  readonly value: string;
}

/** A fenced code block of a Markdown file. */
export interface FencedBlock {
  /** The fence's language (`yaml`, `json`, …), lower case; empty when it has none. */
  readonly language: string;
  readonly text: string;
  /** The line of the opening fence, from 1. */
  readonly line: number;
  readonly marker?: BlockMarker;
}

const MARKER = /^<!--\s*(example|fragment|not-checked):\s*(.*?)\s*-->$/;

/**
 * The fenced code blocks of `markdown`, each with the marker comment on the last non-blank line before its
 * fence, when there is one.
 */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n').map((text, index) => ({ text, number: index + 1 }));
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i];
    const fence = /^\s*(```|~~~)\s*([\w-]*)/.exec(open?.text ?? '');
    if (open === undefined || fence === null) continue;
    let end = i + 1;
    while (end < lines.length && lines[end]?.text.trim() !== fence[1]) end++;
    let before = i - 1;
    while (before >= 0 && lines[before]?.text.trim() === '') before--;
    const match = MARKER.exec(lines[before]?.text.trim() ?? '');
    blocks.push({
      language: (fence[2] ?? '').toLowerCase(),
      text: lines
        .slice(i + 1, end)
        .map((line) => line.text)
        .join('\n'),
      line: open.number,
      ...(match !== null ? { marker: { kind: match[1] as BlockMarkerKind, value: match[2] ?? '' } } : {}),
    });
    i = end;
  }
  return blocks;
}
