import { ERROR_CODES, isSluiceError, SluiceError, type ErrorCode } from '../../sdk/errors/index.js';
import type { Envelope, EnvelopeContext, EnvelopeEntries, EnvelopeRequest } from '../../sdk/envelope/envelope.js';

/**
 * What a plugin's code threw, as the client sees it: a `SluiceError` the plugin raised on purpose (a bad
 * body is a 400) stays as it is; anything else, a generic handler failure included, becomes
 * `SLUICE_PLUGIN_FAILED` naming the plugin, so the answer says whose code failed.
 */
export function pluginFailure(plugin: string, what: string, error: unknown): SluiceError {
  const generic = (code: string): boolean => code === 'SLUICE_HANDLER_FAILED' || code === 'SLUICE_INTERNAL';
  if (isSluiceError(error) && !generic(error.code)) return error;
  // A plugin with no runtime dependency on Sluice (or its own copy of it) marks a deliberate error with
  // the `code` of a Sluice error; it keeps that code's status.
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string' && code in ERROR_CODES && !generic(code)) {
    return new SluiceError(code as ErrorCode, error.message, { plugin }, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SluiceError('SLUICE_PLUGIN_FAILED', `plugin ${plugin}: ${what} failed: ${reason}`, { plugin }, { cause: error });
}

/** `envelope` with its failures reported as the plugin's ({@link pluginFailure}); `decodeEntries` only where it has one. */
export function envelopeWithPluginErrors(envelope: Envelope, plugin: string): Envelope {
  const decodeEntries = envelope.decodeEntries?.bind(envelope);
  return {
    name: envelope.name,
    decode(request, context) {
      try {
        return envelope.decode(request, context);
      } catch (error) {
        throw pluginFailure(plugin, `envelope \`${envelope.name}\` (decode)`, error);
      }
    },
    ...(decodeEntries && {
      decodeEntries(request: EnvelopeRequest, context: EnvelopeContext): EnvelopeEntries {
        try {
          const entries = decodeEntries(request, context);
          // Checked here, at the plugin's edge: a malformed answer must be the plugin's failure, not Sluice's.
          if (typeof entries.listName !== 'string' || !Array.isArray(entries.requests)) throw new Error('it returned no {listName, requests}');
          return entries;
        } catch (error) {
          throw pluginFailure(plugin, `envelope \`${envelope.name}\` (decodeEntries)`, error);
        }
      },
    }),
    encode(responses, context) {
      try {
        return envelope.encode(responses, context);
      } catch (error) {
        throw pluginFailure(plugin, `envelope \`${envelope.name}\` (encode)`, error);
      }
    },
  };
}
