/** A problem with how the command line was used; printed without a stack trace, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
