/**
 * Readers of Codex's answers to client requests, for the callers outside core/codex (chats/, profiles/):
 * they read the few fields Angelia uses into plain values and never throw on a malformed answer (a
 * missing or mistyped field reads as null). The answers are typed by protocol.ts `ResponseOf` but not
 * validated on the wire, so they are read here as `unknown`.
 *
 * Protocol source: codex 0.169.0 generated v2 `ThreadStartResponse` / `ThreadResumeResponse` /
 * `ThreadForkResponse` (thread.id, model, reasoningEffort, approvalPolicy, sandbox), `TurnStartResponse`
 * (turn.id), `ConfigReadResponse` (config, origins: `ConfigLayerMetadata`), `ThreadTurnsListResponse`
 * (data, nextCursor).
 */
import type { CodexSetting, ModelsView } from '../../../shared/contract';
import { isObj, str } from './wire';

/** What a thread start, resume or fork answered: the thread id, and the model, effort and approval policy in force. */
export interface ThreadAnswer {
  threadId: string | null;
  model: string | null;
  reasoningEffort: string | null;
  /** `approvalPolicy` as sent (a string such as "on-request", or an object); null when absent. */
  approvalPolicy: unknown;
}

/** Reads a `thread/start`, `thread/resume` or `thread/fork` answer (see `ThreadAnswer`). */
export function readThreadAnswer(answer: unknown): ThreadAnswer {
  const a = isObj(answer) ? answer : {};
  const thread = isObj(a.thread) ? a.thread : {};
  return { threadId: str(thread.id), model: str(a.model), reasoningEffort: str(a.reasoningEffort), approvalPolicy: a.approvalPolicy ?? null };
}

/** The turn id a `turn/start` answer carries (`{turn:{id}}`), or null. */
export function startedTurnId(answer: unknown): string | null {
  return isObj(answer) && isObj(answer.turn) ? str(answer.turn.id) : null;
}

/** `model` and `model_reasoning_effort` of Codex's effective config (`config/read`'s `config`), each null when unset or not a string. */
export function configModel(config: unknown): { model: string | null; effort: string | null } {
  const c = isObj(config) ? config : {};
  return { model: str(c.model), effort: str(c.model_reasoning_effort) };
}

/**
 * The layer a `config/read` origin names (`ConfigLayerMetadata`, codex 0.169.0), in words:
 * "your Codex config (/home/u/.codex/config.toml)", "the project config (/p/.codex/config.toml)", ….
 */
export function layerSource(meta: unknown): string {
  const name = isObj(meta) && isObj(meta.name) ? meta.name : null;
  const file = name ? str(name.file) : null;
  switch (name ? str(name.type) : null) {
    case 'user': {
      const profile = name ? str(name.profile) : null;
      return profile ? `the Codex profile "${profile}" of your Codex config (${file ?? 'config.toml'})` : `your Codex config (${file ?? 'config.toml'})`;
    }
    case 'project': {
      const folder = name ? str(name.dotCodexFolder) : null;
      return `the project config (${folder ? `${folder}/config.toml` : '.codex/config.toml'})`;
    }
    case 'system':
      return `the system Codex config (${file ?? 'config.toml'})`;
    case 'sessionFlags':
      return "Codex's command line (-c)";
    case 'packagedDefaults':
      return "Codex's packaged defaults";
    case 'mdm':
    case 'enterpriseManaged':
    case 'legacyManagedConfigTomlFromFile':
    case 'legacyManagedConfigTomlFromMdm':
      return 'a managed config set by your administrator';
    default:
      return "Codex's config";
  }
}

/**
 * `model` and `model_reasoning_effort` of a `config/read` answer, each with the layer that set it
 * (null when unset or not a string).
 */
export function configInForce(answer: unknown): Pick<ModelsView['codexConfig'], 'model' | 'effort'> {
  const config = isObj(answer) && isObj(answer.config) ? answer.config : {};
  const origins = isObj(answer) && isObj(answer.origins) ? answer.origins : {};
  const setting = (key: string): CodexSetting | null => {
    const value = str(config[key]);
    return value ? { value, source: layerSource(origins[key]) } : null;
  };
  return { model: setting('model'), effort: setting('model_reasoning_effort') };
}

/** One page of `thread/turns/list`: its turns (as sent) and the next cursor; null when the answer has no `data` list. */
export function readTurnsPage(answer: unknown): { turns: unknown[]; nextCursor: string | null } | null {
  if (!isObj(answer) || !Array.isArray(answer.data)) return null;
  return { turns: answer.data, nextCursor: str(answer.nextCursor) };
}
