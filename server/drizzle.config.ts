import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes numbered SQL migrations to server/drizzle (checked in).
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/drizzle',
});
