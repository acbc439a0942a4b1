/**
 * Variables never passed to a Codex child (docs/security-model.md "Codex's own environment"): billing and
 * endpoint switches, and Angelia's own channel variables (the launch sets those it means). Node built-ins
 * only (none at all), so the early start of `angelia run` (prespawn.ts) strips them too before Angelia's
 * plan has loaded.
 */
export const STRIPPED_ENV = [
  'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_API_KEY',
  'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'XAI_API_KEY',
  'ANGELIA_API_TOKEN', 'ANGELIA_SESSION_KEY', 'ANGELIA_API_SOCK', 'ANGELIA_MAILBOX', 'ANGELIA_ASK',
] as const;
