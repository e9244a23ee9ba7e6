import type { SpanAnchor, YamlSourceMap } from '../parser/yaml-source-map.js';
import { clipProblemText, clipText, MAX_PROBLEM_TEXT_CHARS, MAX_QUOTED_CHARS } from './clip-text.js';
import { displayPath, type JsonPointer } from './json-pointer.js';
import { SourceLines } from './source-lines.js';
import type { ProblemSeverity, WorkflowProblem } from './workflow-problem.js';

/** Where in a value a problem sits: its key, its start, or a character offset into a one-line scalar. */
export type ProblemAnchor = SpanAnchor | { readonly within: number };

/** The key path people see, each key and the whole cut short: a key may be as long as the file. */
function shortPath(pointer: JsonPointer): string {
  const keys = pointer.split('/').map((key) => clipText(key, MAX_QUOTED_CHARS));
  return clipText(displayPath(keys.join('/')), MAX_PROBLEM_TEXT_CHARS);
}

/**
 * Gathers the problems of one workflow file, turning JSON pointers into `line:col` through the
 * document's source map. Every check reports into one collector, so all problems come out together,
 * sorted by position. Each problem is kept short (names and values it quotes, its path, message and
 * hint), so that what a file can make it say does not grow with the file.
 */
export class ProblemCollector {
  private readonly found: { readonly problem: WorkflowProblem; readonly pointer: JsonPointer; readonly offset: number }[] = [];
  private readonly lines: SourceLines;

  constructor(
    readonly file: string,
    text: string,
    private readonly sourceMap: YamlSourceMap,
  ) {
    this.lines = new SourceLines(text);
  }

  /** Records an error at `pointer`. */
  error(pointer: JsonPointer, message: string, hint: string, anchor: ProblemAnchor = 'value'): void {
    this.add('error', pointer, message, hint, anchor);
  }

  /** Records a warning at `pointer`. */
  warning(pointer: JsonPointer, message: string, hint: string, anchor: ProblemAnchor = 'value'): void {
    this.add('warning', pointer, message, hint, anchor);
  }

  /** Records an error at a known source offset (the parser's own findings, before every value has a pointer). */
  errorAt(offset: number, pointer: JsonPointer, message: string, hint: string): void {
    this.push('error', pointer, offset, message, hint);
  }

  /** The 1-based line and column of `offset`, for messages that point at a second place. */
  lineColumnOf(offset: number): { readonly line: number; readonly column: number } {
    return this.lines.at(offset);
  }

  /** The errors so far, in source order. */
  get errors(): WorkflowProblem[] {
    return this.sorted('error');
  }

  /** The warnings so far, in source order. */
  get warnings(): WorkflowProblem[] {
    return this.sorted('warning');
  }

  /** True when at least one error touches `pointer` or a value below it. */
  hasErrorWithin(pointer: JsonPointer): boolean {
    return this.found.some(
      (entry) => entry.problem.severity === 'error' && (entry.pointer === pointer || entry.pointer.startsWith(`${pointer}/`)),
    );
  }

  private add(severity: ProblemSeverity, pointer: JsonPointer, message: string, hint: string, anchor: ProblemAnchor): void {
    this.push(severity, pointer, this.offsetOf(pointer, anchor), message, hint);
  }

  private push(severity: ProblemSeverity, pointer: JsonPointer, offset: number, message: string, hint: string): void {
    const { line, column } = this.lines.at(offset);
    const problem: WorkflowProblem = {
      severity,
      file: clipText(this.file, MAX_PROBLEM_TEXT_CHARS),
      line,
      column,
      path: shortPath(pointer),
      message: clipProblemText(message),
      hint: clipProblemText(hint),
    };
    this.found.push({ problem, pointer, offset });
  }

  private offsetOf(pointer: JsonPointer, anchor: ProblemAnchor): number {
    if (typeof anchor === 'string') return this.sourceMap.offsetOf(pointer, anchor);
    const span = this.sourceMap.get(pointer);
    if (span?.contentOffset !== undefined) return span.contentOffset + anchor.within;
    return this.sourceMap.offsetOf(pointer, 'value');
  }

  private sorted(severity: ProblemSeverity): WorkflowProblem[] {
    return this.found
      .filter(({ problem }) => problem.severity === severity)
      // Array.prototype.sort is stable: problems at one position keep the order they were found in.
      .sort((a, b) => a.offset - b.offset)
      .map(({ problem }) => problem);
  }
}
