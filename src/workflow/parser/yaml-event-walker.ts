import { EVENT_ID, SCALAR_STYLE, getScalarValue, type Event, type ScalarEvent } from 'js-yaml';
import { childPointer, type JsonPointer } from '../problems/json-pointer.js';
import type { ProblemCollector } from '../problems/problem-collector.js';
import type { SourceSpan, YamlSourceMap } from './yaml-source-map.js';

interface MappingFrame {
  readonly kind: 'mapping';
  readonly pointer: JsonPointer;
  readonly seen: Map<string, number>;
  /** The key waiting for its value; `null` after a key that was refused (its value is not mapped). */
  key: { readonly text: string; readonly offset: number } | null | undefined;
}

interface SequenceFrame {
  readonly kind: 'sequence';
  readonly pointer: JsonPointer;
  next: number;
}

/** A document, or a refused complex key whose events are swallowed. */
interface OpaqueFrame {
  readonly kind: 'document' | 'ignored';
}

type Frame = MappingFrame | SequenceFrame | OpaqueFrame;

/** The tags of YAML's core schema, the only ones a workflow may spell out. */
const CORE_TAGS = new Set(['!!str', '!!int', '!!float', '!!bool', '!!null', '!!seq', '!!map']);

function scalarOffset(event: ScalarEvent): number {
  const quoted = event.style === SCALAR_STYLE.SINGLE_QUOTED || event.style === SCALAR_STYLE.DOUBLE_QUOTED;
  return quoted ? event.valueStart - 1 : event.valueStart;
}

/** Where a node event starts in the source; documents and pops have no position. */
function eventOffset(event: Event): number | undefined {
  switch (event.type) {
    case EVENT_ID.SCALAR:
      return scalarOffset(event);
    case EVENT_ID.ALIAS:
      return event.anchorStart - 1;
    case EVENT_ID.MAPPING:
    case EVENT_ID.SEQUENCE:
      return event.start;
    default:
      return undefined;
  }
}

function scalarSpan(source: string, event: ScalarEvent, keyOffset: number | undefined): SourceSpan {
  const raw = source.slice(event.valueStart, event.valueEnd);
  const inline =
    event.style !== SCALAR_STYLE.LITERAL_BLOCK &&
    event.style !== SCALAR_STYLE.FOLDED_BLOCK &&
    !raw.includes('\n') &&
    raw === getScalarValue(source, event);
  return {
    ...(keyOffset !== undefined && { keyOffset }),
    valueOffset: scalarOffset(event),
    ...(inline && { contentOffset: event.valueStart }),
  };
}

/**
 * Walks the parser's events once, before anything is constructed: records the source span of every
 * value by JSON pointer, and reports what a workflow file must not contain — aliases (which expand
 * exponentially), duplicate keys (with the first one's position), keys that are not plain text, and
 * more than one document.
 */
export function walkYamlEvents(events: readonly Event[], source: string, map: YamlSourceMap, problems: ProblemCollector): void {
  const stack: Frame[] = [];
  let documents = 0;
  const aliases = events.filter((event) => event.type === EVENT_ID.ALIAS).length;
  let aliasReported = false;
  for (const [index, event] of events.entries()) {
    if (event.type === EVENT_ID.POP) {
      stack.pop();
      continue;
    }
    if (event.type === EVENT_ID.DOCUMENT) {
      documents += 1;
      if (documents > 1) {
        const next = events[index + 1];
        const at = next === undefined ? source.length : eventOffset(next) ?? source.length;
        problems.errorAt(at, '', 'holds more than one YAML document', 'keep one workflow per file, without a second `---`');
        return;
      }
      stack.push({ kind: 'document' });
      continue;
    }
    const top = stack[stack.length - 1];
    const offset = eventOffset(event) ?? 0;
    const opens = event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE;
    if (top?.kind === 'ignored') {
      if (opens) stack.push({ kind: 'ignored' });
      continue;
    }
    if (top?.kind === 'mapping' && top.key === undefined) {
      if (event.type !== EVENT_ID.SCALAR) {
        problems.errorAt(offset, top.pointer, 'has a key that is not plain text', 'write keys as plain names, not lists, mappings or aliases');
        top.key = null;
        if (opens) stack.push({ kind: 'ignored' });
        continue;
      }
      const text = getScalarValue(source, event);
      const first = top.seen.get(text);
      if (first !== undefined) {
        const at = problems.lineColumnOf(first);
        problems.errorAt(
          offset,
          childPointer(top.pointer, text),
          `duplicate key \`${text}\` (first defined at line ${at.line}, column ${at.column})`,
          'give each key once; rename or remove one of them',
        );
        top.key = null;
        continue;
      }
      top.seen.set(text, offset);
      top.key = { text, offset };
      continue;
    }

    let pointer: JsonPointer | undefined = '';
    let keyOffset: number | undefined;
    if (top?.kind === 'mapping') {
      pointer = top.key === null || top.key === undefined ? undefined : childPointer(top.pointer, top.key.text);
      keyOffset = top.key?.offset;
      top.key = undefined;
    } else if (top?.kind === 'sequence') {
      pointer = childPointer(top.pointer, top.next);
      top.next += 1;
    }

    if (event.type === EVENT_ID.ALIAS) {
      // One report is enough: every alias has the same fix, and a YAML bomb has thousands.
      if (!aliasReported) {
        const name = source.slice(event.anchorStart, event.anchorEnd);
        const count = aliases === 1 ? '' : ` (the file has ${aliases} aliases)`;
        problems.errorAt(offset, pointer ?? '', `uses the alias \`*${name}\`${count}`, 'anchors and aliases are not supported; write the value out, or use `defaults` for shared settings');
        aliasReported = true;
      }
      continue;
    }
    const tag = event.tagStart >= 0 ? source.slice(event.tagStart, event.tagEnd) : undefined;
    if (tag !== undefined && !CORE_TAGS.has(tag)) {
      problems.errorAt(event.tagStart, pointer ?? '', `uses the tag \`${tag}\``, 'custom tags are not supported; write the plain value');
    }
    if (pointer === undefined) {
      // The value of a refused key: swallow it without mapping it.
      if (opens) stack.push({ kind: 'ignored' });
      continue;
    }
    if (event.type === EVENT_ID.SCALAR) {
      map.set(pointer, scalarSpan(source, event, keyOffset));
      continue;
    }
    map.set(pointer, { ...(keyOffset !== undefined && { keyOffset }), valueOffset: offset });
    stack.push(event.type === EVENT_ID.MAPPING ? { kind: 'mapping', pointer, seen: new Map(), key: undefined } : { kind: 'sequence', pointer, next: 0 });
  }
}
