import type { ASTNode } from '@marcbachmann/cel-js';
import type { ConditionReference } from '../definition/condition.js';

/** Something a `when` expression does with `request` or `nodes` that Sluice cannot follow. */
export interface UnfollowableAccess {
  readonly variable: 'request' | 'nodes';
  readonly offset: number;
}

/** What a `when` expression reads, and the accesses that name no input or node literally. */
export interface ConditionReads {
  readonly references: ConditionReference[];
  readonly unfollowable: UnfollowableAccess[];
}

/** The field a `.x` or `["x"]` access names, when it is written literally. */
function literalField(node: ASTNode): string | undefined {
  if (node.op === '.') return node.args[1];
  if (node.op === '[]' && node.args[1].op === 'value' && typeof node.args[1].args === 'string') return node.args[1].args;
  return undefined;
}

/** The object a `.x` or `[…]` access reads from. */
function accessed(node: ASTNode): ASTNode | undefined {
  return node.op === '.' || node.op === '[]' ? node.args[0] : undefined;
}

function isVariable(node: ASTNode | undefined, name: string): boolean {
  return node?.op === 'id' && node.args === name;
}

function children(node: ASTNode): ASTNode[] {
  switch (node.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [node.args[0]];
    case 'call':
      return node.args[1];
    case 'rcall':
      return [node.args[1], ...node.args[2]];
    case 'list':
      return node.args;
    case 'map':
      return node.args.flat();
    case '!_':
    case '-_':
      return [node.args];
    default:
      return [...node.args];
  }
}

/**
 * Finds every `request.<input>` and `nodes.<id>[.<output>]` (or `["…"]`) a CEL expression reads, so that
 * they can be checked and the node's dependencies known. `request` or `nodes` read any other way (a
 * computed key, the whole map) is reported as unfollowable.
 */
export function conditionReads(ast: ASTNode): ConditionReads {
  const references: ConditionReference[] = [];
  const unfollowable: UnfollowableAccess[] = [];
  const visit = (node: ASTNode): void => {
    const inner = accessed(node);
    if (isVariable(inner, 'request')) {
      const input = literalField(node);
      if (input === undefined) unfollowable.push({ variable: 'request', offset: node.start });
      else references.push({ kind: 'request', input, offset: node.start });
      if (node.op === '[]') visit(node.args[1]);
      return;
    }
    if (isVariable(inner, 'nodes')) {
      const id = literalField(node);
      if (id === undefined) unfollowable.push({ variable: 'nodes', offset: node.start });
      else references.push({ kind: 'node', node: id, output: undefined, offset: node.start });
      if (node.op === '[]') visit(node.args[1]);
      return;
    }
    if (inner !== undefined && isVariable(accessed(inner), 'nodes')) {
      const id = literalField(inner);
      const output = literalField(node);
      if (id === undefined || output === undefined) unfollowable.push({ variable: 'nodes', offset: node.start });
      else references.push({ kind: 'node', node: id, output, offset: node.start });
      if (inner.op === '[]') visit(inner.args[1]);
      if (node.op === '[]') visit(node.args[1]);
      return;
    }
    if (isVariable(node, 'request') || isVariable(node, 'nodes')) {
      unfollowable.push({ variable: node.args === 'request' ? 'request' : 'nodes', offset: node.start });
      return;
    }
    for (const child of children(node)) visit(child);
  };
  visit(ast);
  return { references, unfollowable };
}
