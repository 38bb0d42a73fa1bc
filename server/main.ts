// Process entry: configuration, database, first-start seed, listen, graceful shutdown.
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { LockError } from './db/lock.ts';
import { summarizeMissing } from './reports/report.ts';
import { seedEmptyDatabase } from './seed.ts';
import { createServices } from './services.ts';
import { startupProblem } from './startup-errors.ts';

// Kept for the failure message: a start that fails names the setting to fix.
let config: Config | null = null;

async function main() {
  config = loadConfig();
  const services = await createServices(config);
  const app = await buildApp(services.ctx, { logger: { level: config.logLevel } });
  const banner = await seedEmptyDatabase(services.ctx, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing open requests, then closing the database`);
    // No new analysis while the requests drain: a job started now would be cut off (and its
    // 'analysis.start' left without an end in the trail). A job queued meanwhile waits in the queue.
    await services.ctx.analysis.stop();
    // close() stops accepting connections and waits for in-flight requests.
    await app.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (banner) console.log(banner);
  await services.ctx.analysis.start(services.ctx.dbKind, {
    info: (message) => app.log.info(message),
    error: (message) => app.log.error(message),
  });
  // Summaries dropped by a failed rebuild or older than their record: /reports filters by them.
  const built = await summarizeMissing(services.ctx);
  if (built > 0) app.log.info(`${built} report summaries built`);
}

main().catch((error: unknown) => {
  // Configuration and lock problems are the operator's to fix: print them plainly.
  const problem =
    error instanceof ConfigError || error instanceof LockError
      ? error.message
      : startupProblem(error, config);
  console.error(problem ?? error);
  process.exit(1);
});
