/**
 * What an agent question or an MCP elicitation shows, and what a person answers, in the one approval
 * broker's terms (contract.ts `ApprovalView.questions` / `.elicitation`, `approvals:answer`). Wire sources:
 * codex 0.169.0 `item/tool/requestUserInput` (`ToolRequestUserInputParams`, `…Question`, `…Option`,
 * `…Response`) and `mcpServer/elicitation/request` (`McpServerElicitationRequestParams`,
 * `McpElicitationSchema`, `McpServerElicitationRequestResponse`). Answer mapping (docs/architecture.md,
 * "Questions and elicitations"): for a question `allow` = submit `answers`, `deny` = skip (the empty
 * answer); for an elicitation `allow` = accept (with `content` in form mode), `deny` = decline,
 * `cancel` = cancel.
 */
import { z } from 'zod';

/** One option of an agent question (`ToolRequestUserInputOption`). */
export const QuestionOption = z.object({ label: z.string(), description: z.string() });
export type QuestionOption = z.infer<typeof QuestionOption>;

/**
 * One agent question (`ToolRequestUserInputQuestion`). `options` null: free text only. `isOther`: free
 * text is allowed besides the options. `isSecret`: the answer is masked on screen and never logged,
 * audited or recorded in clear.
 */
export const QuestionView = z.object({
  id: z.string(),
  header: z.string(),
  question: z.string(),
  isOther: z.boolean(),
  isSecret: z.boolean(),
  options: z.array(QuestionOption).nullable(),
});
export type QuestionView = z.infer<typeof QuestionView>;

/** Answers to agent questions: question id → the answers (option labels or free text), as `ToolRequestUserInputAnswer.answers`. */
export const QuestionAnswers = z.record(z.string().max(200), z.array(z.string().max(10_000)).max(50));
export type QuestionAnswers = z.infer<typeof QuestionAnswers>;

/** One choice of an enum field: the value sent back and the label shown. */
export const ElicitChoice = z.object({ value: z.string(), label: z.string() });
export type ElicitChoice = z.infer<typeof ElicitChoice>;

/**
 * One field of an MCP elicitation form, flattened from `McpElicitationPrimitiveSchema` (string, number,
 * integer, boolean, single- or multi-select enum). Nothing of the schema is ever rendered as HTML.
 */
export const ElicitField = z.object({
  /** The property name (the key in `content`). */
  name: z.string(),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'enum']),
  title: z.string().nullable(),
  description: z.string().nullable(),
  required: z.boolean(),
  /** `enum` only: the choices offered; `multiple` true: several may be chosen (an array is sent). */
  choices: z.array(ElicitChoice).nullable(),
  multiple: z.boolean(),
  /** `string` only: `email`, `uri`, `date` or `date-time` (a hint for the input), else null. */
  format: z.string().nullable(),
  minLength: z.number().nullable(),
  maxLength: z.number().nullable(),
  minimum: z.number().nullable(),
  maximum: z.number().nullable(),
  default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).nullable(),
});
export type ElicitField = z.infer<typeof ElicitField>;

/**
 * An MCP elicitation as shown. `mode` `form`: `fields` to fill; `url`: `url` to open (only after a click),
 * shown with its full `domain`; `unsupported`: a mode Angelia does not render (only decline / cancel).
 */
export const ElicitationView = z.object({
  serverName: z.string(),
  mode: z.enum(['form', 'url', 'unsupported']),
  message: z.string(),
  fields: z.array(ElicitField),
  url: z.string().nullable(),
  domain: z.string().nullable(),
});
export type ElicitationView = z.infer<typeof ElicitationView>;

/** Form content of an accepted elicitation: field name → value (`McpServerElicitationRequestResponse.content`). */
export const ElicitContent = z.record(
  z.string().max(200),
  z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(100)]),
);
export type ElicitContent = z.infer<typeof ElicitContent>;

/** The mask shown in place of a secret answer, everywhere it would otherwise appear. */
export const SECRET_MASK = '••••••';
