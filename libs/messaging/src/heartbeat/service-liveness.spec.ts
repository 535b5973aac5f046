import { ServiceLivenessTable } from './service-liveness';

describe('ServiceLivenessTable', () => {
  const services = ['quote-service', 'execution-planner'] as const;
  const timeoutMs = 15_000;

  it('says unknown until it has listened for one full timeout, then down for a service never heard from', () => {
    const table = new ServiceLivenessTable(services, timeoutMs);
    expect(table.statuses(0)).toEqual({ 'quote-service': 'unknown', 'execution-planner': 'unknown' });
    table.listening(1_000);
    expect(table.statusOf('quote-service', 1_000 + timeoutMs - 1)).toBe('unknown');
    expect(table.statusOf('quote-service', 1_000 + timeoutMs)).toBe('down');
  });

  it('stays unknown for as long as it cannot listen at all', () => {
    const table = new ServiceLivenessTable(services, timeoutMs);
    expect(table.statusOf('quote-service', 10 * timeoutMs)).toBe('unknown');
  });

  it('says up within the timeout of the last beat of any instance, and down after it', () => {
    const table = new ServiceLivenessTable(services, timeoutMs);
    table.listening(0);
    expect(table.heard('execution-planner', 2_000)).toBe(true);
    expect(table.statuses(2_000 + timeoutMs)).toEqual({ 'quote-service': 'down', 'execution-planner': 'up' });
    expect(table.statusOf('execution-planner', 2_001 + timeoutMs)).toBe('down');
    // Back: one beat is enough.
    table.heard('execution-planner', 40_000);
    expect(table.statusOf('execution-planner', 40_000)).toBe('up');
  });

  it('counts a beat heard before the join event as the start of listening', () => {
    const table = new ServiceLivenessTable(services, timeoutMs);
    table.heard('quote-service', 5_000);
    expect(table.statusOf('execution-planner', 5_000 + timeoutMs - 1)).toBe('unknown');
    expect(table.statusOf('quote-service', 5_000 + timeoutMs + 1)).toBe('down');
  });

  it('drops beats that arrive later than the timeout after they were sent, and beats of services it does not watch', () => {
    const table = new ServiceLivenessTable(services, timeoutMs);
    table.listening(0);
    expect(table.heard('quote-service', 100_000, 100_000 - timeoutMs - 1)).toBe(false);
    expect(table.heard('gateway', 100_000)).toBe(false);
    expect(table.statuses(100_000)).toEqual({ 'quote-service': 'down', 'execution-planner': 'down' });
    // A sender whose clock runs ahead is fine: arrival time is what counts.
    expect(table.heard('quote-service', 100_000, 160_000)).toBe(true);
    expect(table.statusOf('quote-service', 100_000 + timeoutMs)).toBe('up');
  });

  it('refuses a timeout that is not a positive integer', () => {
    expect(() => new ServiceLivenessTable(services, 0)).toThrow('positive integer');
  });
});
