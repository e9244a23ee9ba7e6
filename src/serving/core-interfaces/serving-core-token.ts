/**
 * The Nest injection token of the serving core. Each API module provides the core under it, and each
 * controller injects it typed as the narrow interface of what that API needs of the core.
 */
export const SERVING_CORE = Symbol('ServingCore');
