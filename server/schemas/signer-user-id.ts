// The first component of a review signature (21 CFR 11.200(a)(1)), shared by the server's check
// and the signing dialog, which says this refusal at its User ID field (a pure module without
// imports, so the web app can bundle it).

/** A user ID that is not the signed-in signer's own email: refused before the password is read. */
export const NOT_YOUR_USER_ID =
  'The user ID is not yours: sign with your own user ID and password; nothing was signed';
