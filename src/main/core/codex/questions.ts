/**
 * Agent questions (codex 0.169.0 `item/tool/requestUserInput`, the model's `request_user_input` tool) as
 * requests of the one approval broker: what a card shows (`QuestionView`s, `isBlocking`), how the
 * person's answers are checked, and what goes back on the wire (`ToolRequestUserInputResponse`). Allow
 * submits answers for every question; Deny skips (Codex gets `{answers: {}}`, the empty answer it also
 * takes when nobody answers in time). Secret answers are masked (`maskAnswers`) wherever an answer is
 * shown or kept. docs/architecture.md, "Questions and elicitations".
 */
import { SECRET_MASK, type ApprovalAnswer, type QuestionAnswers, type QuestionView } from '../../../shared/contract';
import { ASK_LIMITS, overCount, overLong, reservedName } from './askLimits';
import { assertOffered, badAnswer, type AskRequest, type ImmediateRequest } from './askRequest';
import type * as v2 from './generated/v2';
import { isObj, str, type Obj } from './wire';

/** The longest question text kept in a card's one-line title, in characters. */
const TITLE_MAX = 160;

/**
 * The questions of `ToolRequestUserInputParams.questions`, in order: entries without a string `id` are
 * dropped (they could not be answered), a repeated id keeps its first question; missing texts read as
 * '', missing flags as false, `options` as null unless an array (options without a string label are
 * dropped; a missing description reads as ''). Never throws.
 */
export function readQuestions(v: unknown): QuestionView[] {
  const out: QuestionView[] = [];
  for (const q of Array.isArray(v) ? v : []) {
    if (!isObj(q)) continue;
    const id = str(q.id);
    if (id === null || out.some((x) => x.id === id)) continue;
    out.push({
      id,
      header: str(q.header) ?? '',
      question: str(q.question) ?? '',
      isOther: q.isOther === true,
      isSecret: q.isSecret === true,
      options: Array.isArray(q.options)
        ? q.options.filter(isObj).flatMap((o) => (str(o.label) === null ? [] : [{ label: str(o.label) ?? '', description: str(o.description) ?? '' }]))
        : null,
    });
  }
  return out;
}

/**
 * Why the questions of `ToolRequestUserInputParams.questions` are not shown (askLimits.ts): more than
 * `ASK_LIMITS.questions` entries, a question with more than `ASK_LIMITS.options` options, a text longer
 * than `ASK_LIMITS.questionText`, or an id that is a reserved name (`__proto__`, `constructor`,
 * `prototype`); null when they may be shown. Never throws.
 */
export function questionsRefusal(v: unknown): string | null {
  const list = Array.isArray(v) ? v.filter(isObj) : [];
  const many = overCount(list.length, ASK_LIMITS.questions, 'questions');
  if (many) return many;
  for (const q of list) {
    const options = Array.isArray(q.options) ? q.options.filter(isObj) : [];
    const id = str(q.id) ?? '?';
    const why =
      overCount(options.length, ASK_LIMITS.options, `options in question "${oneLine(id, 40)}"`) ??
      overLong(
        [
          ['a question id', str(q.id)],
          [`the header of question "${oneLine(id, 40)}"`, str(q.header)],
          [`question "${oneLine(id, 40)}"`, str(q.question)],
          ...options.flatMap((o): [string, string | null][] => [
            [`an option of question "${oneLine(id, 40)}"`, str(o.label)],
            [`an option's description in question "${oneLine(id, 40)}"`, str(o.description)],
          ]),
        ],
        ASK_LIMITS.questionText,
      );
    if (why) return why;
  }
  const reserved = reservedName(list.map((q) => str(q.id) ?? ''));
  return reserved === null ? null : `a question with the id "${reserved}", a name Angelia does not take as an id`;
}

/** One line of at most `max` characters: whitespace runs folded to a space, an ellipsis when cut. */
export function oneLine(text: string, max = TITLE_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "The agent asks: <first question (or its header)>", plus "(and N more)" when there are more. */
export function questionTitle(questions: readonly QuestionView[]): string {
  const first = questions[0];
  const text = first ? oneLine(first.question || first.header) : '';
  const more = questions.length > 1 ? ` (and ${questions.length - 1} more)` : '';
  return `The agent asks: ${text || 'a question'}${more}`;
}

/**
 * Checks the answers of an Allow (submit) against the questions and returns them trimmed of blank
 * entries. Rules: every key names a question; every question has at least one non-blank answer (a
 * submit answers them all; to answer none, Deny skips the request); where `options` is non-null and
 * `isOther` false, every answer is one of the option labels. Throws AppFailure `bad-answer` naming
 * the question and the fix.
 */
export function checkAnswers(questions: readonly QuestionView[], answers: QuestionAnswers): QuestionAnswers {
  const ids = questions.map((q) => q.id);
  for (const key of Object.keys(answers)) {
    if (!ids.includes(key)) throw badAnswer(`"${key}" is not a question of this request (its questions: ${ids.join(', ')})`);
  }
  // Own properties only (a name such as `constructor` must not read Object.prototype's), into an object without a prototype.
  const out: QuestionAnswers = Object.create(null) as QuestionAnswers;
  for (const q of questions) {
    const own: unknown = Object.hasOwn(answers, q.id) ? answers[q.id] : [];
    if (!Array.isArray(own) || !own.every((a) => typeof a === 'string')) throw badAnswer(`answers["${q.id}"] must be a list of strings`);
    const given = own.filter((a) => a.trim() !== '');
    const name = `question "${q.id}"${q.header ? ` (${q.header})` : ''}`;
    if (given.length === 0) {
      throw badAnswer(`${name} has no answer: give answers["${q.id}"] = [<answer>], or answer Deny to skip all the questions`);
    }
    if (q.options && !q.isOther) {
      const labels = q.options.map((o) => o.label);
      const wrong = given.find((a) => !labels.includes(a));
      if (wrong !== undefined) throw badAnswer(`${name} takes one of its options (${labels.map((l) => `"${l}"`).join(', ')}), not free text`);
    }
    out[q.id] = given;
  }
  return out;
}

/** `answers` as they may be shown or kept: every answer to a secret question replaced by one `SECRET_MASK`. */
export function maskAnswers(questions: readonly QuestionView[], answers: QuestionAnswers): QuestionAnswers {
  const out: QuestionAnswers = {};
  for (const [id, list] of Object.entries(answers)) {
    out[id] = questions.find((q) => q.id === id)?.isSecret ? [SECRET_MASK] : [...list];
  }
  return out;
}

/**
 * The reply writer of a question: Allow → `{answers: {<id>: {answers: [...]}}}` from the checked
 * answers; Deny → exactly `{answers: {}}` (skip). A grant, form content, or answers with Deny are
 * refused (`bad-answer`).
 */
function questionWire(questions: readonly QuestionView[], offered: readonly ApprovalAnswer[]): AskRequest['toWire'] {
  return (a, extras = {}) => {
    assertOffered(offered, a);
    if (extras.grant) throw badAnswer('a grant only goes with a permissions request; an agent question takes answers');
    if (extras.content) throw badAnswer('content only goes with an MCP form request; an agent question takes answers');
    if (a !== 'allow') {
      if (extras.answers && Object.keys(extras.answers).length) throw badAnswer('Deny skips the questions and sends no answers: answer Allow to submit them');
      return { answers: {} } satisfies v2.ToolRequestUserInputResponse;
    }
    const checked = checkAnswers(questions, extras.answers ?? {});
    const wire: v2.ToolRequestUserInputResponse = { answers: {} };
    for (const [id, list] of Object.entries(checked)) wire.answers[id] = { answers: list };
    return wire;
  };
}

/**
 * Classifies `item/tool/requestUserInput` (codex 0.169.0 `ToolRequestUserInputParams`): an ask of kind
 * `userInput` offering Allow (submit the answers) and Deny (skip), timing out as Deny (the empty
 * answer). `isBlocking` is Codex's (absent reads as true). A request with no question Angelia can
 * show is answered at once with the empty answer. Never throws.
 */
export function classifyUserInput(p: Obj, threadId: string | null, turnId: string | null): AskRequest | ImmediateRequest {
  const refusal = questionsRefusal(p.questions);
  if (refusal) {
    return {
      type: 'immediate',
      kind: 'userInput',
      result: { answers: {} } satisfies v2.ToolRequestUserInputResponse,
      notice: `The agent asked ${refusal}; Angelia does not show such a request, so it got an empty answer.`,
    };
  }
  const questions = readQuestions(p.questions);
  if (questions.length === 0) {
    return {
      type: 'immediate',
      kind: 'userInput',
      result: { answers: {} } satisfies v2.ToolRequestUserInputResponse,
      notice: 'The agent asked a question without any question in it; it got an empty answer.',
    };
  }
  const answers: ApprovalAnswer[] = ['allow', 'deny'];
  return {
    type: 'ask',
    kind: 'userInput',
    threadId,
    turnId,
    itemId: str(p.itemId),
    outsideSandbox: null,
    title: questionTitle(questions),
    command: null,
    cwd: null,
    reason: null,
    changes: [],
    requested: null,
    refused: [],
    answers,
    toWire: questionWire(questions, answers),
    timeoutAnswer: 'deny',
    questions,
    isBlocking: p.isBlocking !== false,
  };
}
