import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SluiceError } from '../sdk/errors/index.js';
import type { ModelVersionSettingsConfig } from './sluice-config.js';
import { UNHONOURED_TORCHSERVE_KEYS } from './torchserve-keys.js';
import { TorchServePropertyReader } from './torchserve-property-reader.js';

/** A TorchServe `config.properties` read as a Sluice configuration layer. */
export interface TorchServeConfig {
  /** The layer (checked against the schema by the loader, as any other). */
  readonly layer: Readonly<Record<string, unknown>>;
  /** One sentence listing the keys Sluice cannot honour, or undefined when there are none. */
  readonly warning: string | undefined;
}

/** Where the TorchServe key file is written: TorchServe's name, in the working directory. */
export const TORCHSERVE_KEY_FILE_NAME = 'key_file.json';

/** The per-model settings of TorchServe's `models` JSON Sluice maps, to Sluice's names and units. */
const MODEL_SETTINGS: Readonly<Record<string, { readonly key: keyof ModelVersionSettingsConfig; readonly scale: number }>> = {
  minWorkers: { key: 'minWorkers', scale: 1 },
  maxWorkers: { key: 'maxWorkers', scale: 1 },
  batchSize: { key: 'batchSize', scale: 1 },
  maxBatchDelay: { key: 'maxBatchDelayMs', scale: 1 },
  responseTimeout: { key: 'responseTimeoutMs', scale: 1000 },
  startupTimeout: { key: 'loadTimeoutMs', scale: 1000 },
  jobQueueSize: { key: 'jobQueueSize', scale: 1 },
};

function loadModels(r: TorchServePropertyReader): 'all' | string[] | undefined {
  const value = r.get('load_models');
  if (value === undefined) return undefined;
  if (value === 'all') return 'all';
  if (value === 'standalone') return [];
  const names: string[] = [];
  for (const item of value.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const separator = item.indexOf('=');
    const name = separator === -1 ? undefined : item.slice(0, separator).trim();
    const file = separator === -1 ? item : item.slice(separator + 1).trim();
    if (file === '') throw r.fail('load_models', `has an empty entry in ${JSON.stringify(value)}`);
    if (name !== undefined) r.note(`load_models name ${name}=`, `${file} is loaded under the name its archive gives; register it with model_name to rename it`);
    names.push(file);
  }
  return [...new Set(names)];
}

function modelSettings(r: TorchServePropertyReader): Record<string, Record<string, ModelVersionSettingsConfig>> | undefined {
  const value = r.get('models');
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw r.fail('models', `is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(parsed)) throw r.fail('models', 'must map model names to their versions, each to its settings');
  const settings: Record<string, Record<string, ModelVersionSettingsConfig>> = {};
  for (const [name, versions] of Object.entries(parsed)) {
    if (!isObject(versions)) throw r.fail('models', `must map model ${JSON.stringify(name)} to its versions, each to its settings`);
    for (const [version, given] of Object.entries(versions)) {
      if (!isObject(given)) throw r.fail('models', `must give model ${JSON.stringify(name)} version ${JSON.stringify(version)} an object of settings`);
      const mapped: Record<string, number | boolean> = {};
      for (const [key, raw] of Object.entries(given)) {
        const where = `${name}.${version}.${key}`;
        const known = MODEL_SETTINGS[key];
        if (known !== undefined) {
          const whole = key !== 'maxBatchDelay';
          if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0 || (whole && !Number.isInteger(raw))) {
            throw r.fail('models', `gives ${where} ${JSON.stringify(raw)}; it must be ${whole ? 'a whole number' : 'a number'} of at least 0`);
          }
          mapped[known.key] = raw * known.scale;
        } else if (key === 'defaultVersion') {
          if (typeof raw !== 'boolean') throw r.fail('models', `gives ${where} ${JSON.stringify(raw)}; it must be true or false`);
          mapped['isDefault'] = raw;
        } else {
          r.note(`models ${where}`, 'not a setting Sluice has');
        }
      }
      (settings[name] ??= {})[version] = mapped;
    }
  }
  return settings;
}

function allowedUrls(r: TorchServePropertyReader): string[] | undefined {
  const value = r.get('allowed_urls');
  if (value === undefined) return undefined;
  const patterns = value.split(',').map((part) => part.trim()).filter((part) => part !== '');
  for (const pattern of patterns) {
    try {
      new RegExp(pattern);
    } catch (error) {
      throw r.fail('allowed_urls', `holds ${JSON.stringify(pattern)}, which is not a regular expression (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return patterns;
}

function grpcLayer(r: TorchServePropertyReader): Record<string, unknown> | undefined {
  const grpc: Record<string, unknown> = {};
  const listener = (name: 'inference' | 'management'): void => {
    const host = r.get(`grpc_${name}_address`);
    const port = r.integer(`grpc_${name}_port`, 0, 65535);
    if (host !== undefined || port !== undefined) grpc[name] = { ...(host !== undefined ? { host } : {}), ...(port !== undefined ? { port } : {}) };
  };
  listener('inference');
  listener('management');
  const certFile = r.path('certificate_file');
  const keyFile = r.path('private_key_file');
  if (r.boolean('enable_grpc_ssl') === true) {
    if (certFile === undefined || keyFile === undefined) throw r.fail('enable_grpc_ssl', 'needs certificate_file and private_key_file (PEM files)');
    grpc['tls'] = { certFile, keyFile };
  } else if (certFile !== undefined || keyFile !== undefined) {
    r.note('certificate_file, private_key_file', "Sluice's HTTP ports serve plain HTTP; they serve gRPC over TLS with enable_grpc_ssl=true");
  }
  return Object.keys(grpc).length > 0 ? grpc : undefined;
}

function authLayer(r: TorchServePropertyReader, cwd: string): Record<string, unknown> {
  const disabled = r.boolean('disable_token_authorization') === true;
  const expiration = r.get('token_expiration_min');
  if (expiration !== undefined && !(Number(expiration) > 0)) throw r.fail('token_expiration_min', `must be a number of minutes above 0, got ${JSON.stringify(expiration)}`);
  if (disabled) return { auth: { inference: 'none', management: 'none' } };
  return {
    // As TorchServe: with token authorisation on, both the inference and the management APIs need a key.
    auth: { inference: 'token-auth', management: 'token-auth' },
    plugins: [
      {
        name: 'token-auth',
        config: {
          keyFile: resolve(cwd, TORCHSERVE_KEY_FILE_NAME),
          keyFileLayout: 'torchserve',
          ...(expiration !== undefined ? { expirationMinutes: Number(expiration) } : {}),
        },
      },
    ],
  };
}

function metricsKeys(r: TorchServePropertyReader): void {
  const mode = r.get('metrics_mode');
  if (mode !== undefined && !['prometheus', 'log', 'legacy'].includes(mode)) throw r.fail('metrics_mode', `must be prometheus, log or legacy, got ${JSON.stringify(mode)}`);
  if (mode === 'log' || mode === 'legacy') r.note(`metrics_mode=${mode}`, 'Sluice serves its metrics on /metrics in the Prometheus format, and logs none');
  const format = r.get('metrics_format');
  if (format !== undefined && format !== 'prometheus') r.note(`metrics_format=${format}`, 'the metrics page is in the Prometheus format');
  if (r.boolean('enable_metrics_api') === false) r.note('enable_metrics_api=false', 'the metrics port always serves /metrics; bind it to a private address');
  if (r.boolean('enable_model_api') === false) r.note('enable_model_api=false', 'the management API always registers and unregisters; guard it with token authorisation');
}

/**
 * Reads a TorchServe `config.properties` (Java properties syntax, `$$VAR$$` taken from `env`; with
 * `enable_envvars_config=true`, `TS_<KEY>` variables override the file's keys) into a configuration
 * layer: the addresses and ports, `model_store`, `workflow_store`, `load_models`, the `models` JSON
 * (per-version settings), `job_queue_size`, `default_workers_per_model`, `default_response_timeout`,
 * `max_request_size`, `allowed_urls` and the token switches (token-auth on the inference and
 * management APIs, its key file `key_file.json` in `cwd` in TorchServe's layout, unless
 * `disable_token_authorization=true`). Relative paths resolve against `cwd`, as TorchServe resolves
 * them. Keys TorchServe has and Sluice cannot honour are returned in one warning; an unknown key, a key
 * without a value or a malformed value is `SLUICE_CONFIG_INVALID` naming the file, the line and the key.
 */
export function readTorchServeConfig(file: string, cwd: string, env: Readonly<Record<string, string | undefined>>, source = file): TorchServeConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SluiceError('SLUICE_CONFIG_INVALID', `${source}: cannot be read (${error instanceof Error ? error.message : String(error)}); check the path given to --ts-config`, { source });
  }
  const r = TorchServePropertyReader.parse(text, source, cwd, env);
  const listener = (key: string): Record<string, unknown> => {
    const address = r.address(key);
    return address === undefined ? {} : { [key.replace('_address', '')]: address };
  };
  const models = loadModels(r);
  const settings = modelSettings(r);
  const grpc = grpcLayer(r);
  const workers = r.integer('default_workers_per_model', 0, 256);
  if (workers === 0) r.note('default_workers_per_model=0', "TorchServe's one worker per GPU or CPU; Sluice starts each model's manifest's workers.min (1 unless it says)");
  const timeout = r.integer('default_response_timeout', 1, 86_400);
  const queue = r.integer('job_queue_size', 1, 1_000_000);
  const requestSize = r.integer('max_request_size', 1024, 4_294_967_296);
  const urls = allowedUrls(r);
  const modelStore = r.path('model_store');
  const workflowStore = r.path('workflow_store');
  r.boolean('enable_envvars_config');
  metricsKeys(r);
  for (const key of r.keys()) {
    const reason = UNHONOURED_TORCHSERVE_KEYS[key];
    if (reason !== undefined) r.note(key, reason);
  }
  const layer: Record<string, unknown> = {
    ...listener('inference_address'),
    ...listener('management_address'),
    ...listener('metrics_address'),
    ...(grpc !== undefined ? { grpc } : {}),
    ...(modelStore !== undefined ? { modelStore } : {}),
    ...(workflowStore !== undefined ? { workflowStore } : {}),
    ...(models !== undefined ? { models } : {}),
    ...(settings !== undefined ? { modelSettings: settings } : {}),
    ...(queue !== undefined ? { jobQueueSize: queue } : {}),
    ...(workers !== undefined && workers > 0 ? { defaultWorkers: workers } : {}),
    ...(timeout !== undefined ? { responseTimeoutMs: timeout * 1000 } : {}),
    ...(requestSize !== undefined ? { maxRequestSizeBytes: requestSize } : {}),
    ...(urls !== undefined ? { allowedUrls: urls } : {}),
    ...authLayer(r, cwd),
  };
  const warning = r.unhonoured.length === 0 ? undefined : `${source}: Sluice cannot honour these TorchServe settings, and goes on without them: ${r.unhonoured.join('; ')}`;
  return { layer, warning };
}
