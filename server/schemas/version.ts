import { Type } from 'typebox';

/**
 * A record's version (docs/api-contract.md "Versions"): answered with the record, one more after
 * each change to what the answer shows. An edit sends back the one it opened: a PUT naming an
 * older one is refused with 409, a later one (never the record's) with 400, one naming none is not
 * checked.
 */
const MAX_VERSION = 2_147_483_647;
export const Version = Type.Integer({ minimum: 1, maximum: MAX_VERSION });

/** The `version` of a PUT's body: the one the form opened. */
export const ExpectedVersion = Type.Optional(Version);

/**
 * The `version` of a save that creates or replaces (a line's floor-plan configuration): 0 when the
 * form found none saved, so one saved meanwhile is refused (409), not replaced unseen.
 */
export const ExpectedVersionOrNone = Type.Optional(
  Type.Integer({ minimum: 0, maximum: MAX_VERSION }),
);
