import { ConfigError, loadConfig } from './config';

describe('loadConfig: shutdown', () => {
  it('drains at once and gives up after 10 s unless told otherwise', () => {
    expect(loadConfig({}).shutdown).toEqual({ delayMs: 0, timeoutMs: 10_000 });
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '30000' }).shutdown).toEqual({
      delayMs: 5000,
      timeoutMs: 30_000,
    });
  });

  it.each([
    ['SHUTDOWN_DELAY_MS', '-1'],
    ['SHUTDOWN_TIMEOUT_MS', '10s'],
    ['SHUTDOWN_TIMEOUT_MS', '1.5'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(
      `Invalid configuration: ${name} must be a whole number of milliseconds, got "${value}"`,
    );
  });
});
