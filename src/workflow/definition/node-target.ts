/** What a node runs: a model version, a plugin handler, or another workflow. */
export type NodeTarget =
  | { readonly kind: 'model'; readonly model: string; readonly version: string | undefined }
  | { readonly kind: 'handler'; readonly handler: string }
  | { readonly kind: 'workflow'; readonly workflow: string };

/** The node's target the way the file writes it: `model ppocr-det@2`, `handler ocr/crop-lines`. */
export function describeTarget(target: NodeTarget): string {
  switch (target.kind) {
    case 'model':
      return `model ${target.model}${target.version === undefined ? '' : `@${target.version}`}`;
    case 'handler':
      return `handler ${target.handler}`;
    case 'workflow':
      return `workflow ${target.workflow}`;
  }
}
