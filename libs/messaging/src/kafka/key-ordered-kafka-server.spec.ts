import { ServerKafka } from '@nestjs/microservices';
import { KeyOrderedKafkaServer } from './key-ordered-kafka-server';

/** Nest's own server, its route exposed. */
class NestKafkaRoutes extends ServerKafka {
  routeOf(pattern: string): string {
    return this.getRouteFromPattern(pattern);
  }
}

describe('KeyOrderedKafkaServer routes', () => {
  const options = { client: { brokers: ['127.0.0.1:1'] } };
  const server = new KeyOrderedKafkaServer(options, { perPartition: 1, perProcess: 1 });
  const nest = new NestKafkaRoutes(options);

  it("answers Nest's route for a plain topic name, a JSON pattern and a dotted name, every time", () => {
    for (const pattern of ['swap.commands', '{"cmd":"sum","role":"math"}', 'quote.requests.reply', '42']) {
      const expected = nest.routeOf(pattern);
      expect(server.getRouteFromPattern(pattern)).toBe(expected);
      expect(server.getRouteFromPattern(pattern)).toBe(expected);
    }
  });
});
