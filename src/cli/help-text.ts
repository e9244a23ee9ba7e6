/** `sluice --help`. */
export const HELP_TEXT = `Sluice: serve ONNX models over TorchServe-, KServe- and OIP-compatible APIs.

Usage:
  sluice start [options]           start the server (in the background unless --foreground)
  sluice stop [--config FILE]      stop the server sluice start started in the background
                                   with that config file
  sluice status [--config FILE]    whether that server runs (exit status 0) or not (3)
  sluice archive <model-dir | workflow-dir> [-o FILE]
                                   pack a model directory (model.yaml) or a workflow
                                   directory (workflow.yaml) into a .sluice archive
  sluice init <model.onnx> [--name NAME]
                                   write beside an ONNX model the model.yaml Sluice makes
                                   for a directory holding only it, for editing (never
                                   overwrites one)
  sluice import-mar <model.mar> [options]
                                   convert a TorchServe model archive holding an ONNX
                                   model into a model directory of the model store
  sluice workflow graph <name | file.yaml> [options]
                                   print a workflow's graph as Mermaid or Graphviz DOT,
                                   after checking it as a registration would
  sluice --help | -h               this text
  sluice --version                 the Sluice version

Options of start:
  --config FILE        configuration file (default: ./sluice.yaml when it exists)
  --ts-config FILE     a TorchServe config.properties, read over the config file
                       (docs/migrating-from-torchserve.md lists the keys)
  --model-store DIR    model store directory (default: ./model-store)
  --models LIST        models to load at start-up: all, or names separated by commas
  --model-dir DIR      also serve this model directory (a model.yaml, or just model.onnx)
  --model-name NAME    ... under this name; give both, as KServe does
  --inference-port N   HTTP inference port (default 8080)
  --management-port N  HTTP management port (default 8081)
  --grpc-inference-port N
                       gRPC inference port (default 7070)
  --log-level LEVEL    debug | info | warn | error | silent
  --log-format FORMAT  auto | json | pretty (auto: pretty on a terminal, JSON
                       otherwise; a background server's log file is always JSON)
  --no-snapshot        do not restore the last snapshot of registered models
  --enable-model-api   let the management APIs register and unregister models
                       (modelApi: true; a --ts-config start has it off, as TorchServe)
  --foreground         stay attached to the terminal; stop with Ctrl-C or SIGTERM

A background server keeps its pid and log in .sluice/ beside its config file (in the
working directory without one); stop and status look there.

Options of archive:
  -o, --output FILE    archive to write (default: ./<name>-<version>.sluice)

Options of import-mar:
  -o, --output DIR     model directory to write (default: <model store>/<model name>)
  --model-store DIR    model store (default: the config's, ./model-store)
  --handler NAME       Sluice handler to use when the archive's is not a TorchServe base
                       handler Sluice maps (image_classifier, text_classifier)
  --config FILE        configuration file the model store is read from

Options of workflow graph (a name is looked up in the workflow store; a path with a /
or ending in .yaml or .yml is read as a file):
  --format FORMAT      mermaid (default) or dot
  --config FILE        configuration file, as for start (the stores, models and plugins)
  --workflow-store DIR workflow store (default: ./workflows)
  --model-store DIR    model store the workflow's models are read from (default: ./model-store)

Configuration precedence: defaults < config file < --ts-config file < SLUICE_* environment
variables < flags.
See docs/configuration.md for every key.
`;
