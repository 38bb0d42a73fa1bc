// The rule for a new password, shared at runtime by the server's schemas and the web app's forms
// (a pure module without imports, so the web app can bundle it).

/** Spec §9: the minimum length of a new password (create, admin reset, change). */
export const MIN_PASSWORD_LENGTH = 8;
