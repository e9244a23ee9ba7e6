// Function nodes of torchserve-iris.yaml. Each receives the node's input (the request body for the first
// node, a parent's result for a node with one parent, an object keyed by parent for several).

/** Accepts a bare list of measurements or {"data": [...]}. */
export function pre_processing(body) {
  return Array.isArray(body) ? body : body.data;
}

/** Joins the two classifiers' answers. */
export function aggregate(answers) {
  const quick = answers.quick_classifier;
  const careful = answers.careful_classifier;
  return { quick, careful, agree: quick.label === careful.label };
}
