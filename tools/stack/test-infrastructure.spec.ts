import { chooseTestInfrastructure } from './test-infrastructure';

describe('chooseTestInfrastructure', () => {
  it('starts containers when Docker answers and neither KAFKA_BROKERS nor DATABASE_URL is given', () => {
    expect(chooseTestInfrastructure(true, {})).toBe('containers');
    // `KAFKA_BROKERS= npm test` is not a broker list: the harness treats empty as unset.
    expect(chooseTestInfrastructure(true, { KAFKA_BROKERS: '', DATABASE_URL: '' })).toBe('containers');
  });

  it('uses the given cluster or server, and the local rest, when either variable is set', () => {
    expect(chooseTestInfrastructure(true, { KAFKA_BROKERS: 'kafka:9092' })).toBe('local');
    expect(chooseTestInfrastructure(true, { DATABASE_URL: 'postgres://postgres@db:5432/swapgw' })).toBe(
      'local',
    );
    expect(
      chooseTestInfrastructure(true, { KAFKA_BROKERS: 'kafka:9092', DATABASE_URL: 'postgres://db/x' }),
    ).toBe('local');
  });

  it('runs locally without a Docker engine, whatever is set', () => {
    expect(chooseTestInfrastructure(false, {})).toBe('local');
    expect(chooseTestInfrastructure(false, { KAFKA_BROKERS: 'kafka:9092' })).toBe('local');
  });
});
