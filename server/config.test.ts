import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('has defaults that serve one machine with no set-up', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: null,
      scryptLog2N: 17,
      tokenTtlSeconds: 43_200,
      demo: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('turns the demo off when a first admin is configured', () => {
    const config = loadConfig({
      ADMIN_EMAIL: 'Boss@Plant.example',
      ADMIN_PASSWORD: 'long-password',
    });
    expect(config).toMatchObject({ demo: false, adminEmail: 'boss@plant.example' });
  });

  it('lists every problem in one message', () => {
    const env = {
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      JWT_SECRET: 'short',
      ADMIN_EMAIL: 'admin@example.com',
      SCRYPT_LOG2_N: '3',
      DEMO: 'maybe',
      LOG_LEVEL: 'loud',
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(7);
    expect((error as Error).message).toContain(
      "PORT must be an integer from 0 to 65535 (got 'eighty')",
    );
    expect((error as Error).message).toContain(
      'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
    expect((error as Error).message).toContain('JWT_SECRET must be at least 32 characters');
  });
});
