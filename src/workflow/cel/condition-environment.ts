import { Environment } from '@marcbachmann/cel-js';

let environment: Environment | undefined;

/**
 * The CEL environment `when` expressions compile in: two map variables, `request` (the request's inputs)
 * and `nodes` (upstream outputs by node id), and nothing else. The AST limit keeps a hostile expression
 * from costing much to compile or run.
 */
export function conditionEnvironment(): Environment {
  environment ??= new Environment({ unlistedVariablesAreDyn: false, limits: { maxAstNodes: 500, maxDepth: 32 } })
    .registerVariable('request', 'map')
    .registerVariable('nodes', 'map');
  return environment;
}
