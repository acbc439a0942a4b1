/**
 * The headless host's gatekeeping, as pure functions: the token (random, compared in constant time),
 * the Host header (DNS rebinding: only 127.0.0.1:PORT or localhost:PORT) and the Origin header (only
 * the host's own origin; absent for non-browser clients such as the CLI or tests).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh token: 24 random bytes, base64url (32 characters). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** True when `presented` equals `expected`. Constant time in the content (both are hashed first, so lengths do not leak). */
export function tokenMatches(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || expected.length === 0) return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** The Host header values the host answers to. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** True when the Host header names this host (case-insensitive); a missing Host is refused. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return allowedHosts(port).includes(host.toLowerCase());
}

/** True when the Origin header is absent (not a browser) or is this host's own http origin. */
export function originAllowed(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  return allowedHosts(port).some((h) => o === `http://${h}`);
}
