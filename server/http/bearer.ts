/** `Authorization: Bearer <token>`, compared in constant time; the scheme is case-insensitive (RFC 9110 section 11.1). */
import { timingSafeEqual } from 'node:crypto';

export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
