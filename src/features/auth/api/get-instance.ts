import { api } from '../../../lib/api-client.ts';

/** Public: whether this server holds the demo dataset (server/routes/instance.ts). */
export const getInstance = () =>
  api.get<{ demo: boolean }>('/api/instance', { withToken: false, signOutOn401: false });
