// Integration tests talk to a real broker, database and chains: allow for broker start-up and rebalances.
jest.setTimeout(120000);
