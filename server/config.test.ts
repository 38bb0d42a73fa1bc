import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('reads the proxy, TLS and limit settings, naming every bad one', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    let error: unknown;
    try {
      loadConfig({
        TRUST_PROXY: 'true',
        TLS_CERT: '/nonexistent/cert.pem',
        REQUEST_TIMEOUT_SECONDS: '0',
        VIDEO_LIST_CACHE_BYTES: '-1',
      });
    } catch (e) {
      error = e;
    }
    const message = (error as Error).message;
    expect(message).toContain('TRUST_PROXY must be off, a hop count from 1 to 10');
    expect(message).toContain('TLS_CERT and TLS_KEY must be set together');
    expect(message).toContain('REQUEST_TIMEOUT_SECONDS must be an integer from 1 to 3600');
    expect(message).toContain('VIDEO_LIST_CACHE_BYTES must be an integer');
    expect(() => loadConfig({ TLS_CERT: '/nonexistent/c', TLS_KEY: '/nonexistent/k' })).toThrow(
      /TLS_CERT \(\/nonexistent\/c\) cannot be read/,
    );
  });

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

  it('ends a session after SESSION_IDLE_MINUTES without activity: 30 by default, 1 to 720', () => {
    expect(loadConfig({}).sessionIdleMinutes).toBe(30);
    expect(loadConfig({ SESSION_IDLE_MINUTES: '5' }).sessionIdleMinutes).toBe(5);
    for (const bad of ['0', '721', '2.5', 'soon']) {
      expect(() => loadConfig({ SESSION_IDLE_MINUTES: bad })).toThrow(
        `SESSION_IDLE_MINUTES must be an integer from 1 to 720 (got '${bad}')`,
      );
    }
  });

  it('remembers PASSWORD_HISTORY passwords (5; 0 to 24) and ages them PASSWORD_MAX_AGE_DAYS (off; to 3650)', () => {
    expect(loadConfig({})).toMatchObject({ passwordHistory: 5, passwordMaxAgeDays: 0 });
    expect(loadConfig({ PASSWORD_HISTORY: '0', PASSWORD_MAX_AGE_DAYS: '90' })).toMatchObject({
      passwordHistory: 0,
      passwordMaxAgeDays: 90,
    });
    for (const bad of ['-1', '25', '2.5', 'all']) {
      expect(() => loadConfig({ PASSWORD_HISTORY: bad })).toThrow(
        `PASSWORD_HISTORY must be an integer from 0 to 24 (got '${bad}')`,
      );
    }
    for (const bad of ['-1', '3651', '1.5', 'never']) {
      expect(() => loadConfig({ PASSWORD_MAX_AGE_DAYS: bad })).toThrow(
        `PASSWORD_MAX_AGE_DAYS must be an integer from 0 to 3650 (got '${bad}')`,
      );
    }
  });

  it('knows a browser KNOWN_BROWSER_DAYS after a sign-in there (90; 0 off; to 400)', () => {
    expect(loadConfig({}).knownBrowserDays).toBe(90);
    expect(loadConfig({ KNOWN_BROWSER_DAYS: '0' }).knownBrowserDays).toBe(0);
    for (const bad of ['-1', '401', '1.5', 'forever']) {
      expect(() => loadConfig({ KNOWN_BROWSER_DAYS: bad })).toThrow(
        `KNOWN_BROWSER_DAYS must be an integer from 0 to 400 (got '${bad}')`,
      );
    }
  });

  it('turns the demo off when a first admin is configured', () => {
    const config = loadConfig({
      ADMIN_EMAIL: 'Boss@Plant.example',
      ADMIN_PASSWORD: 'long-password',
    });
    expect(config).toMatchObject({ demo: false, adminEmail: 'boss@plant.example' });
  });

  it('refuses an ADMIN_PASSWORD a guesser tries first, as the users form refuses one', () => {
    const admin = { ADMIN_EMAIL: 'boss@plant.example' };
    for (const password of ['Password1!', '12345678', 'lineclearance']) {
      expect(() => loadConfig({ ...admin, ADMIN_PASSWORD: password }), password).toThrow(
        'ADMIN_PASSWORD is too common or too easy to guess',
      );
    }
    expect(loadConfig({ ...admin, ADMIN_PASSWORD: 'first-admin-pw' }).adminEmail).toBe(
      'boss@plant.example',
    );
  });

  it('names the first admin ADMIN_NAME, checked as a name typed in the users form', () => {
    const admin = { ADMIN_EMAIL: 'boss@plant.example', ADMIN_PASSWORD: 'long-password' };
    expect(loadConfig(admin).adminName).toBe('Administrator');
    expect(loadConfig({ ...admin, ADMIN_NAME: '  Dana Whitfield ' }).adminName).toBe(
      'Dana Whitfield',
    );
    const problems = (name: string) => {
      try {
        loadConfig({ ...admin, ADMIN_NAME: name });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems('x'.repeat(201))).toEqual(['ADMIN_NAME must be at most 200 characters']);
    const unprintable = [
      'ADMIN_NAME must not contain control characters or invisible direction controls',
    ];
    expect(problems('Dana\u202eWhitfield')).toEqual(unprintable);
    expect(problems('Dana\u0007Whitfield')).toEqual(unprintable);
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

  it('validates the analysis settings: detector, interval, concurrency', () => {
    expect(loadConfig({}).analysis).toMatchObject({
      concurrency: 1,
      keyframeInterval: 1,
      detector: { kind: 'none' },
      ffmpegPath: null,
    });
    expect(
      loadConfig({
        DETECTOR: 'http',
        DETECTOR_URL: 'http://detector:9000/v1',
        KEYFRAME_INTERVAL: '0.5',
      }).analysis,
    ).toMatchObject({
      keyframeInterval: 0.5,
      detector: { kind: 'http', threshold: 0.25, retries: 2 },
    });
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ DETECTOR: 'onnx' })).toEqual([
      "DETECTOR=onnx needs DETECTOR_MODEL (the model's .onnx file)",
    ]);
    expect(
      problems({ DETECTOR: 'yolo', ANALYSIS_CONCURRENCY: '-1', KEYFRAME_INTERVAL: 'often' }),
    ).toEqual([
      "DETECTOR must be none, onnx or http (got 'yolo')",
      "ANALYSIS_CONCURRENCY must be an integer from 0 to 16 (got '-1')",
      "KEYFRAME_INTERVAL must be a number from 0.1 to 3600 (got 'often')",
    ]);
  });
});
