// One limit for every route that hashes a password a caller chose or tries (change-password,
// creating a user, resetting a password): PASSWORD_RATE_LIMIT requests a minute per user and
// PASSWORD_ADDRESS_RATE_LIMIT per client address, shared by those routes, so one token or one
// machine cannot queue up hashing. The address allows more: a class of new users behind one NAT
// sets its passwords together while an admin creates the next accounts.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../context.ts';
import { HttpError } from './errors.ts';

const handlers = new WeakMap<AppContext, preHandlerAsyncHookHandler>();

export function passwordRateLimits(app: FastifyInstance): preHandlerAsyncHookHandler {
  const known = handlers.get(app.ctx);
  if (known) return known;
  const { passwordRateLimit, passwordAddressRateLimit } = app.ctx.config;
  const perUser = app.createRateLimit({
    max: passwordRateLimit,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `user ${request.user?.id ?? '-'}`,
  });
  const perAddress = app.createRateLimit({
    max: passwordAddressRateLimit,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `address ${request.ip}`,
  });
  const handler: preHandlerAsyncHookHandler = async (request, reply) => {
    const [user, address] = [await perUser(request), await perAddress(request)];
    const over = [user, address].find((limit) => !limit.isAllowed && limit.isExceeded);
    if (over && !over.isAllowed) {
      reply.header('retry-after', String(over.ttlInSeconds));
      throw new HttpError(429, `Too many password requests; try again in ${over.ttlInSeconds} s`);
    }
  };
  handlers.set(app.ctx, handler);
  return handler;
}
