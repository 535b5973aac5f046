import { closeOnSignals } from './close-on-signals';

describe('closeOnSignals', () => {
  const logger = { log: jest.fn(), error: jest.fn() };
  let exit: jest.SpyInstance;

  beforeEach(() => {
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    logger.log.mockClear();
    logger.error.mockClear();
  });
  afterEach(() => exit.mockRestore());

  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('closes once on SIGTERM, then exits 0, and leaves the signals alone once unsubscribed', async () => {
    const close = jest.fn().mockResolvedValue(undefined);
    const shutdown = closeOnSignals(close, logger, { context: 'Test' });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      process.emit('SIGINT', 'SIGINT');
      await settled();
      expect(close).toHaveBeenCalledTimes(1);
      expect(exit.mock.calls).toEqual([[0]]);
      expect(logger.log).toHaveBeenCalledWith({ msg: 'shutting down', signal: 'SIGTERM' }, 'Test');
    } finally {
      shutdown.unsubscribe();
    }
  });

  it('exits with the code asked for, and 1 when closing fails', async () => {
    const asked = closeOnSignals(jest.fn().mockResolvedValue(undefined), logger);
    asked.unsubscribe();
    asked.shutDown('consumer-failure', 1);
    await settled();
    expect(exit.mock.calls).toEqual([[1]]);

    exit.mockClear();
    const failing = closeOnSignals(jest.fn().mockRejectedValue(new Error('pool stuck')), logger);
    failing.unsubscribe();
    failing.shutDown('SIGTERM');
    await settled();
    expect(exit.mock.calls).toEqual([[1]]);
    expect(logger.error).toHaveBeenCalledWith({ msg: 'error during shutdown', error: 'pool stuck' });
  });
});
