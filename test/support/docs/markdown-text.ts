/** One line of a Markdown file, numbered from 1, and whether it lies inside a fenced code block. */
export interface MarkdownLine {
  readonly number: number;
  readonly text: string;
  /** Inside a fence (the fence lines themselves included). */
  readonly fenced: boolean;
}

const FENCE = /^\s*(```|~~~)/;

/** The lines of `markdown`, each marked as inside a fenced code block or not. */
export function markdownLines(markdown: string): MarkdownLine[] {
  let fence: string | undefined;
  return markdown.split('\n').map((text, index) => {
    const opening = FENCE.exec(text);
    if (fence === undefined && opening !== null) {
      fence = opening[1];
      return { number: index + 1, text, fenced: true };
    }
    if (fence !== undefined) {
      if (text.trim() === fence) fence = undefined;
      return { number: index + 1, text, fenced: true };
    }
    return { number: index + 1, text, fenced: false };
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/**
 * The anchors of `markdown`: every heading's, numbered as GitHub numbers repeated ones (`x`, `x-1`, …), and
 * those of `<a id="…">` tags.
 */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of markdownLines(markdown)) {
    if (line.fenced) continue;
    for (const tag of line.text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(tag[1] ?? '');
    const heading = /^#{1,6}\s+(.*)$/.exec(line.text);
    if (heading === null) continue;
    const base = headingAnchor(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** A link of a Markdown file: where it points and the line it is on. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

/** The links `[text](target)` outside code (fences and inline code spans), external ones included. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const line of markdownLines(markdown)) {
    if (line.fenced) continue;
    const prose = line.text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: match[1] ?? '', line: line.number });
  }
  return links;
}
