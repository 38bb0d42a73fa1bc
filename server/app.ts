// The API and the built web app as one Fastify plugin tree. `buildApp` wires the services; the
// process entry (main.ts) only loads config, opens the database, listens and shuts down.
import fs from 'node:fs';
import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppContext } from './context.ts';
import { registerAuthHook } from './http/auth-hook.ts';
import { registerStorableDateTime } from './http/date-time-format.ts';
import { HttpError } from './http/errors.ts';
import { storageFailure, storageFailureMessage } from './http/storage-errors.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { validationMessage } from './http/validation-message.ts';
import { validatorCompiler } from './http/validator.ts';
import { apiRoutes } from './routes/index.ts';

export interface BuildOptions {
  /** Pino logger options, or false (tests). */
  logger?: boolean | { level: string };
}

/** Trusts the `hops` proxies nearest to the server (Fastify's numeric trustProxy). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** HSTS for a year, sent only on answers that went out over HTTPS (see `hsts` below). */
const HSTS = 'max-age=31536000; includeSubDomains';

export async function buildApp(ctx: AppContext, options: BuildOptions = {}) {
  const { config } = ctx;
  registerStorableDateTime();
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  // Node checks for overdue requests on this interval (30 s by default): never longer than the
  // limit itself, so a slow body is cut off close to REQUEST_TIMEOUT_SECONDS.
  const serverOptions = {
    requestTimeout,
    headersTimeout: Math.min(60_000, requestTimeout),
    connectionsCheckingInterval: Math.min(30_000, Math.max(250, requestTimeout / 4)),
  };
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 1024 * 1024,
    // A client sending its request slowly (or not at all) is cut off, never held forever.
    requestTimeout,
    connectionTimeout: config.connectionTimeoutSeconds * 1000,
    // The client's address and protocol come from X-Forwarded-* only from a trusted proxy.
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Typed as the HTTP transport: the HTTPS server is the same API to every route and hook.
    ...((config.tls
      ? { https: { cert: config.tls.cert, key: config.tls.key, ...serverOptions } }
      : { http: serverOptions }) as { http: typeof serverOptions }),
    schemaErrorFormatter: (errors, context) => new Error(validationMessage(errors, context)),
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.decorate('ctx', ctx);

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error instanceof HttpError || (status >= 400 && status < 500)) {
      return reply.status(status).send({ message: error.message });
    }
    // A full or read-only disk is for the administrator to fix, not a fault in the request: the
    // person is told so (507) and what it means for their change.
    const storage = storageFailure(error);
    // 5xx: details go to the log, never to the client.
    request.log.error(
      { err: error },
      storage ? `request failed: the storage is ${storage.problem}` : 'request failed',
    );
    if (storage) {
      return reply.status(507).send({ message: storageFailureMessage(storage, request.method) });
    }
    return reply.status(500).send({ message: 'Internal server error' });
  });

  // Security headers on every answer. Helmet's middleware is built once here: @fastify/helmet
  // built it again for every request (parsing the CSP directives each time). HSTS goes only on
  // answers served over HTTPS (here or at a trusted proxy): over plain HTTP it means nothing,
  // and a LAN trial's plain-HTTP name must not be pinned to HTTPS by it.
  const securityHeaders = helmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The path core is WebAssembly; Radix positions popovers with inline styles.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        // Factories often serve plain http on the LAN: upgrading would break every request.
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    securityHeaders(request.raw, reply.raw, (error) =>
      done(error instanceof Error ? error : undefined),
    );
  });

  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`),
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Line clearance inspection API',
        version: '1.0.0',
        description: 'Every call of the web app (spec §7). Errors are `{ message }`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
  });

  registerAuthHook(app);
  registerTextGuard(app);
  const caches = ctx.caches;
  if (caches) {
    // See ReadCache: a write invalidates when it starts and again once its response is out.
    // Callback style, not async: an async hook costs a promise and a microtask on every request.
    const onWrite = (request: { method: string }, _reply: unknown, done: () => void) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        caches.videoLists.invalidate();
        caches.users.invalidate();
      }
      done();
    };
    app.addHook('onRequest', onWrite);
    app.addHook('onResponse', onWrite);
  }
  await app.register(apiRoutes, { prefix: '/api' });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () =>
    app.swagger(),
  );

  registerWebApp(app, config.distDir);
  return app;
}

/** Serves dist/ and answers unknown non-/api GETs with index.html (history-style routes). */
function registerWebApp(app: FastifyInstance, distDir: string) {
  const hasWebApp = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasWebApp) {
    app.register(fastifyStatic, { root: distDir, wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler(
    { preHandler: app.rateLimit({ max: 600, timeWindow: '1 minute' }) },
    (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      // A file the app asks for (a script chunk, an image) is not a page: answering index.html
      // would fail as 'wrong MIME type', far from the cause (files listed when the server started).
      // (Only top-level names: /video/{file name}.mp4 is a page of the app.)
      const isFile = pathname.startsWith('/assets/') || /^\/[^/]+\.[a-z0-9]+$/i.test(pathname);
      if (request.method === 'GET' && isFile && !pathname.startsWith('/api')) {
        return reply.status(404).send({
          message: `No file ${pathname}: if the web app was built again, restart the server`,
        });
      }
      const isPage = request.method === 'GET' && !request.url.startsWith('/api');
      if (isPage && hasWebApp) return reply.type('text/html').sendFile('index.html');
      if (isPage) {
        return reply
          .status(404)
          .send({ message: 'The web app is not built; run `npm run build` or `npm start`' });
      }
      return reply.status(404).send({ message: `No route ${request.method} ${request.url}` });
    },
  );
}

export type App = Awaited<ReturnType<typeof buildApp>>;
