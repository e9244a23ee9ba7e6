/**
 * The seconds a request refused because a queue was full is told to wait before retrying
 * (`retryAfterSeconds` in its error's details, sent as `retry-after`): the model's job queue and the
 * queue of handler threads alike.
 */
export const RETRY_AFTER_SECONDS = 1;
