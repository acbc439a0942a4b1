/**
 * Readers of Codex turns and their items as `thread/turns/list` and `thread/read` return them (codex
 * 0.169.0 generated `Turn`, `ThreadItem`, `UserInput`, `FileUpdateChange`, `WebSearchItem`): the
 * turn's times, status and error, and per item its kind, the text an export shows (tool names as the
 * model knows them, a tool row's text) and the chat's decoded view (items.ts). Used by the export
 * (chats/export.ts) and by a chat reading its past turns; they never throw on a malformed turn or item.
 */
import { readItem, type ThreadItemView } from './items';
import { isObj, str, strList, type Obj } from './wire';

/** `spawnAgent` → `spawn_agent` (collab tool names as the model knows them). */
const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The tool name of a tool item (codex 0.169.0 `ThreadItem`): commandExecution→`shell`,
 * fileChange→`apply_patch`, webSearch→`web_search`, imageView→`view_image`,
 * imageGeneration→`image_generation`, mcpToolCall→`<server>.<tool>`, dynamicToolCall→its `tool`
 * (`<namespace>.<tool>` when namespaced), collabAgentToolCall→its tool in snake case (`spawn_agent`, …),
 * functionCallOutput→its `name`. Null for an item that is not a tool call.
 */
export function toolName(item: unknown): string | null {
  if (!isObj(item)) return null;
  const ns = (name: string | null): string | null => (name ? (str(item.namespace) ? `${str(item.namespace)}.${name}` : name) : null);
  switch (item.type) {
    case 'commandExecution':
      return 'shell';
    case 'fileChange':
      return 'apply_patch';
    case 'webSearch':
      return 'web_search';
    case 'imageView':
      return 'view_image';
    case 'imageGeneration':
      return 'image_generation';
    case 'mcpToolCall':
      return `${str(item.server) ?? '?'}.${str(item.tool) ?? '?'}`;
    case 'dynamicToolCall':
      return ns(str(item.tool)) ?? 'tool';
    case 'collabAgentToolCall':
      return str(item.tool) ? snake(str(item.tool) as string) : 'spawn_agent';
    case 'functionCallOutput':
      return ns(str(item.name)) ?? 'function';
    default:
      return null;
  }
}

/** Unix seconds (turn `startedAt`/`completedAt`) → ISO string; null when not a finite number. */
export function secondsToIso(s: unknown): string | null {
  return typeof s === 'number' && Number.isFinite(s) ? new Date(s * 1000).toISOString() : null;
}

/** Unix milliseconds (item `startedAtMs`/`completedAtMs`) → ISO string; null when not a finite number. */
function msToIso(ms: unknown): string | null {
  return typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** The text of a userMessage's `content` (`UserInput[]`): text parts as written, images as `[image]`, one part a line. */
export function userText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObj)
    .map((p) => {
      switch (p.type) {
        case 'text':
          return str(p.text) ?? '';
        case 'image':
        case 'localImage':
          return '[image]';
        case 'audio':
        case 'localAudio':
          return '[audio]';
        case 'skill':
          return `[skill ${str(p.name) ?? '?'}]`;
        case 'mention':
          return `[@${str(p.name) ?? '?'}]`;
        default:
          return `[${String(p.type)}]`;
      }
    })
    .join('\n');
}

const trimNl = (s: string): string => s.replace(/\n+$/, '');
const json = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Texts of content items (`{type:"text"|"inputText"|"input_text", text}`); images as `[image]`, any other part as `[<type>]`. */
function contentText(items: unknown): string {
  if (!Array.isArray(items)) return '';
  return items
    .filter(isObj)
    .map((c) => str(c.text) ?? (/image/i.test(String(c.type)) ? '[image]' : `[${String(c.type)}]`))
    .join('\n');
}

/**
 * The text of a tool row for one tool item: a command as `$ <command>`, its output and `[exit N]` (or
 * `[<status>]` when it has no exit code, e.g. declined); a file change as `<kind> <path>` then the diff
 * for each change; other tools as their name, arguments and result text.
 */
export function toolText(item: Obj): string {
  const lines: string[] = [];
  const status = str(item.status);
  switch (item.type) {
    case 'commandExecution': {
      lines.push(`$ ${str(item.command) ?? ''}`);
      const out = str(item.aggregatedOutput);
      if (out) lines.push(trimNl(out));
      lines.push(typeof item.exitCode === 'number' ? `[exit ${item.exitCode}]` : `[${status ?? 'no exit code'}]`);
      break;
    }
    case 'fileChange': {
      for (const c of Array.isArray(item.changes) ? item.changes.filter(isObj) : []) {
        const kind = isObj(c.kind) ? c.kind : {};
        const move = str(kind.move_path);
        lines.push(`${str(kind.type) ?? 'update'} ${str(c.path) ?? '?'}${move ? ` → ${move}` : ''}`);
        const diff = str(c.diff);
        if (diff) lines.push(trimNl(diff));
      }
      if (status && status !== 'completed') lines.push(`[${status}]`);
      break;
    }
    case 'webSearch': {
      // WebSearchItem.query, plus the action's detail: `search {queries}`, `openPage|findInPage {url, pattern}`.
      const action = isObj(item.action) ? item.action : {};
      const extra = [...strList(action.queries), ...[action.url, action.pattern].map(str).filter((x): x is string => !!x)].filter((q) => q !== str(item.query));
      lines.push(`web_search ${str(item.query) ?? ''}`.trimEnd(), ...extra);
      break;
    }
    case 'imageView':
      lines.push(`view_image ${str(item.path) ?? ''}`.trimEnd());
      break;
    case 'imageGeneration':
      lines.push(`image_generation ${str(item.revisedPrompt) ?? ''}`.trimEnd());
      if (str(item.savedPath)) lines.push(`saved: ${str(item.savedPath)}`);
      break;
    case 'mcpToolCall': {
      lines.push(`${toolName(item)} ${json(item.arguments)}`.trimEnd());
      const result = isObj(item.result) ? contentText(item.result.content) : '';
      if (result) lines.push(trimNl(result));
      if (isObj(item.error)) lines.push(`error: ${str(item.error.message) ?? json(item.error)}`);
      break;
    }
    case 'dynamicToolCall': {
      lines.push(`${toolName(item)} ${json(item.arguments)}`.trimEnd());
      const result = contentText(item.contentItems);
      if (result) lines.push(trimNl(result));
      break;
    }
    case 'collabAgentToolCall':
      lines.push(`${toolName(item)} ${str(item.prompt) ?? ''}`.trimEnd());
      break;
    case 'functionCallOutput': {
      lines.push(toolName(item) ?? 'function');
      const out = typeof item.output === 'string' ? item.output : contentText(item.output);
      if (out) lines.push(trimNl(out));
      break;
    }
    default:
      lines.push(toolName(item) ?? String(item.type));
  }
  if (status && ['failed', 'declined'].includes(status) && item.type !== 'commandExecution' && item.type !== 'fileChange') lines.push(`[${status}]`);
  return lines.join('\n');
}

/** One item of a turn, read (see `readTurn`). */
export interface TurnItemRead {
  /** Its `ThreadItem.type`; null when the item is not an object or has no type. */
  type: string | null;
  /** A userMessage's text (`userText`), else null. */
  userText: string | null;
  /** An agentMessage's text, else null (also when it is empty or not a string). */
  agentText: string | null;
  /** The tool name of a tool call (`toolName`), else null. */
  tool: string | null;
  /** A tool call's row text (`toolText`); '' for other items. */
  toolText: string;
  /** The item's `startedAtMs` as an ISO time, or null. */
  startedAt: string | null;
  /** The item decoded for the chat (items.ts `readItem`), null when it is not an object. */
  view: ThreadItemView | null;
}

/** One turn, read: id, status and error message as sent (null when absent), times, and its items. */
export interface TurnView {
  id: string | null;
  status: string | null;
  errorMessage: string | null;
  /** `startedAt` / `completedAt`, Unix seconds (finite numbers only), else null. */
  startedAt: number | null;
  completedAt: number | null;
  /** True when the turn says it holds only some of its items (`itemsView` present and not "full"). */
  partial: boolean;
  items: TurnItemRead[];
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads one `Turn` as sent (anything else reads as a turn with nothing in it). */
export function readTurn(turn: unknown): TurnView {
  const t = isObj(turn) ? turn : {};
  const items = (Array.isArray(t.items) ? t.items : []).map((item): TurnItemRead => {
    const type = isObj(item) ? str(item.type) || null : null;
    if (!isObj(item) || !type) return { type: null, userText: null, agentText: null, tool: null, toolText: '', startedAt: null, view: null };
    const tool = toolName(item);
    return {
      type,
      userText: type === 'userMessage' ? userText(item.content) : null,
      agentText: type === 'agentMessage' ? str(item.text) || null : null,
      tool,
      toolText: tool ? toolText(item) : '',
      startedAt: msToIso(item.startedAtMs),
      view: readItem(item),
    };
  });
  return {
    id: str(t.id),
    status: str(t.status),
    errorMessage: isObj(t.error) ? str(t.error.message) : null,
    startedAt: finite(t.startedAt),
    completedAt: finite(t.completedAt),
    partial: t.itemsView !== undefined && t.itemsView !== 'full',
    items,
  };
}
