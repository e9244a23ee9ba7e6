import { loadConfigWithSources, type ConfigLayer } from '../../config/index.js';
import { createLogger } from '../../telemetry/logging/pino-logger.js';
import { formatWorkflowProblem, printDot, printMermaid, workflowDiagram } from '../../workflow/index.js';
import { UsageError } from '../cli-errors.js';
import { parseCommandArguments } from '../command-flags.js';
import { configDirectoryOf } from '../run-files.js';
import { readGraphSource, WorkflowGraphLoader } from './graph-workflow.js';
import { StoreCatalogSource } from './store-catalog.js';

const USAGE = 'usage: sluice workflow graph <name | file.yaml> [--format mermaid|dot] [--config FILE] [--workflow-store DIR] [--model-store DIR]';

const FORMATS = ['mermaid', 'dot'] as const;
type GraphFormat = (typeof FORMATS)[number];

function isFormat(value: string): value is GraphFormat {
  return (FORMATS as readonly string[]).includes(value);
}

/**
 * `sluice workflow graph NAME`: prints the graph of a workflow (a workflow-store name, or a YAML file) as
 * Mermaid (default) or Graphviz DOT, after checking it as a registration would; the warnings of that check,
 * and what of the model store or plugins could not be read, go to standard error.
 */
async function runGraph(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommandArguments(args, {
    format: { type: 'string' },
    config: { type: 'string' },
    'workflow-store': { type: 'string' },
    'model-store': { type: 'string' },
  });
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) throw new UsageError(USAGE);
  const format = values.format ?? 'mermaid';
  if (!isFormat(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; it was given ${JSON.stringify(format)}`);
  // Relative to the working directory, as start's --model-store is.
  const overrides: ConfigLayer = {
    ...(values['workflow-store'] !== undefined ? { workflowStore: values['workflow-store'] } : {}),
    ...(values['model-store'] !== undefined ? { modelStore: values['model-store'] } : {}),
  };
  const { config } = loadConfigWithSources({ configFile: values.config, cwd, env, overrides });
  // JSON lines on standard error: standard output carries the diagram.
  const logger = createLogger('error', process.stderr);
  const store = new StoreCatalogSource({ config, configDirectory: configDirectoryOf(cwd, values.config), logger });
  const loader = new WorkflowGraphLoader(store, config);
  const { plan, warnings, notes } = await loader.load(await readGraphSource(name, cwd, config));
  for (const warning of [...loader.warnings, ...warnings.map(formatWorkflowProblem)]) process.stderr.write(`sluice: warning: ${warning}\n`);
  const diagram = workflowDiagram(plan, { notes });
  process.stdout.write(format === 'dot' ? printDot(diagram) : printMermaid(diagram));
  return 0;
}

/** `sluice workflow <subcommand>`: `graph` is the one there is. */
export function runWorkflowCommand(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'graph') return runGraph(rest, cwd, env);
  throw new UsageError(subcommand === undefined ? USAGE : `unknown workflow subcommand ${JSON.stringify(subcommand)}; ${USAGE}`);
}
