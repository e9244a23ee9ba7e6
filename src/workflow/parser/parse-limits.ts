/** Bounds on what the parser accepts, so that a hostile file cannot exhaust memory or the stack. */
export interface WorkflowParseLimits {
  /** Largest file, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Deepest nesting of mappings and lists. */
  readonly maxDepth: number;
}

/** 1 MiB and 32 levels: a hand-written workflow is a few kilobytes and a handful of levels deep. */
export const DEFAULT_PARSE_LIMITS: WorkflowParseLimits = { maxBytes: 1024 * 1024, maxDepth: 32 };
