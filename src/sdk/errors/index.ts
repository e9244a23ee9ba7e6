export { ERROR_CATEGORIES, type ErrorCategory } from './error-category.js';
export { ERROR_CODES, type ErrorCode, type ErrorCodeInfo } from './error-codes.js';
export { SluiceError, isSluiceError, type ErrorDetails } from './sluice-error.js';
export { RETRY_AFTER_SECONDS } from './retry-after-seconds.js';
