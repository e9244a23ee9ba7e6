export {
  CONFIG_PATH_KEYS,
  DEFAULT_CONFIG,
  type ArchiveLimitsConfig,
  type AuthConfig,
  type ConfigLayer,
  type DownloadConfig,
  type GrpcConfig,
  type ListenerConfig,
  type ModelSelection,
  type ModelSettingsConfig,
  type ModelVersionSettingsConfig,
  type RuntimeConfig,
  type SluiceConfig,
  type SnapshotConfig,
} from './sluice-config.js';
export {
  DEFAULT_CONFIG_FILE_NAME,
  OVERRIDES_SOURCE,
  loadConfig,
  loadConfigWithSources,
  type LoadConfigOptions,
  type LoadedConfig,
} from './config-loader.js';
export { ConfigSources, type SourcedLayer } from './config-sources.js';
export {
  CONFIG_ENV_PREFIX,
  NON_CONFIG_ENV_VARIABLES,
  configEnvVariableName,
  listConfigEnvVariables,
  type ConfigEnvVariable,
} from './config-env-reader.js';
export { listConfigKeys, type ConfigKeyInfo, type ConfigSchemaNode } from './config-schema-keys.js';
export { parseConfigValue } from './config-value-parser.js';
export { checkListenerAddresses, type HostLookup } from './listener-ports.js';
