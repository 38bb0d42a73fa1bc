import { randomBytes } from 'node:crypto';

/** A new record id: 24 hex characters (the `_id` shape the web app expects). */
export const newId = () => randomBytes(12).toString('hex');

export const iso = (date: Date) => date.toISOString();
