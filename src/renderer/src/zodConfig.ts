/**
 * Zod without its JIT in the renderer. Zod 4 compiles object parsers with `new Function` when eval is
 * allowed, and probes for that when a schema is built; the renderer's CSP (script-src 'self', no
 * 'unsafe-eval') forbids it, so the probe only adds a `securitypolicyviolation` report per window.
 * `jitless` skips the probe and the JIT. Imported first by main.tsx, before any schema (the contract's)
 * is built.
 */
import { config } from 'zod';

config({ jitless: true });
