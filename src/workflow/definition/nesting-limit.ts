/**
 * Most levels of sub-workflows one request runs: the request's workflow is level 0, a workflow its
 * `workflow:` node calls level 1, and so on. Registration refuses a chain that goes deeper, and the
 * executor stops one all the same.
 */
export const MAX_WORKFLOW_DEPTH = 8;
