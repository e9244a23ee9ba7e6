/** The most of a name a message quotes, in characters. */
const MAX_QUOTED_CHARS = 60;

/** `name` quoted (as JSON), cut short with its length past {@link MAX_QUOTED_CHARS}: thousands of characters help nobody. */
function quoted(name: string): string {
  if (name.length <= MAX_QUOTED_CHARS) return JSON.stringify(name);
  return `${JSON.stringify(`${name.slice(0, MAX_QUOTED_CHARS - 3)}...`)} (${name.length} characters)`;
}

/** The rule model and workflow names follow (their schemas' `pattern`), in words, for messages. */
const NAME_RULE_IN_WORDS = "a letter or digit, then letters, digits, '_', '.' or '-'; at most 128 characters";

/**
 * Why `name`, given as `what` (say `` `model_name` ``), breaks `pattern`, the schemas' rule for model and
 * workflow names; undefined when it follows it.
 */
export function nameRuleProblem(what: string, pattern: RegExp, name: string): string | undefined {
  return pattern.test(name) ? undefined : `${what} must match ${pattern.source} (${NAME_RULE_IN_WORDS}), got ${quoted(name)}`;
}
