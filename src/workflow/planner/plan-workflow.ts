import { SluiceError } from '../../sdk/errors/index.js';
import { nodeDataDependencies, nodeDependencies } from '../definition/node-dependencies.js';
import type { WorkflowDefinition } from '../definition/workflow-definition.js';
import { reverseGraph } from '../graph/graph.js';
import { stageLevels } from '../graph/stage-levels.js';
import { topologicalOrder } from '../graph/topological-order.js';
import { setOwn } from '../../sdk/collections/own-property.js';
import { deepFreeze } from './deep-freeze.js';
import type { PlannedNode, WorkflowPlan } from './workflow-plan.js';

/**
 * Turns a validated workflow into its frozen {@link WorkflowPlan}. Validation refuses cycles; a
 * definition that still has one was not validated, which is a bug (`SLUICE_INTERNAL`).
 */
export function planWorkflow(workflow: WorkflowDefinition): WorkflowPlan {
  const dependencies = new Map(Object.values(workflow.nodes).map((node) => [node.id, nodeDependencies(node)]));
  const order = topologicalOrder(dependencies);
  if (order === undefined) {
    throw new SluiceError('SLUICE_INTERNAL', `workflow ${workflow.name} has a cycle; plan only workflows that passed validation`);
  }
  const dependents = reverseGraph(dependencies);
  const stages = stageLevels(order, dependencies);
  const stageOf = new Map(stages.flatMap((ids, stage) => ids.map((id) => [id, stage] as const)));
  const nodes: Record<string, PlannedNode> = {};
  for (const node of Object.values(workflow.nodes)) {
    const id = node.id;
    setOwn(nodes, id, {
      node,
      dependencies: dependencies.get(id) ?? [],
      dataDependencies: nodeDataDependencies(node),
      dependents: dependents.get(id) ?? [],
      stage: stageOf.get(id) ?? 0,
    });
  }
  return deepFreeze({ workflow, nodes, order, stages });
}
