/** The claims the login token carries (spec §3). The server verifies the token; the app only reads it. */
export interface TokenClaims {
  id: string;
  name: string;
  email: string;
  roles: string[];
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function decodeToken(token: string): TokenClaims {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('Login token is not a JWT (no payload segment)');
  let claims: unknown;
  try {
    claims = JSON.parse(base64UrlDecode(payload));
  } catch {
    throw new Error('Login token payload is not base64url-encoded JSON');
  }
  if (typeof claims !== 'object' || claims === null) {
    throw new Error('Login token payload is not an object');
  }
  const { id, name, email, roles } = claims as Record<string, unknown>;
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error('Login token has no id');
  if (typeof name !== 'string') throw new Error('Login token has no name');
  if (typeof email !== 'string') throw new Error('Login token has no email');
  if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string')) {
    throw new Error('Login token roles must be a list of strings');
  }
  return { id: String(id), name, email, roles };
}
