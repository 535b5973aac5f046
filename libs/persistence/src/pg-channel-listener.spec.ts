import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { pgClientConfigOf } from './pg-channel-listener';

describe('pgClientConfigOf', () => {
  it('uses the DataSource URL and names the connection after its purpose', () => {
    const config = pgClientConfigOf(
      {
        type: 'postgres',
        url: 'postgres://postgres@db:5432/swapgw',
        applicationName: 'planner',
      } as PostgresDataSourceOptions,
      'outbox-listen',
    );
    expect(config).toMatchObject({
      connectionString: 'postgres://postgres@db:5432/swapgw',
      application_name: 'planner-outbox-listen',
    });
  });

  it('uses host, port, user and database when there is no URL', () => {
    const config = pgClientConfigOf(
      {
        type: 'postgres',
        host: 'db',
        port: 5433,
        username: 'u',
        password: 'p',
        database: 'd',
      } as PostgresDataSourceOptions,
      'x',
    );
    expect(config).toMatchObject({
      host: 'db',
      port: 5433,
      user: 'u',
      password: 'p',
      database: 'd',
      application_name: 'swapgw-x',
    });
  });
});
