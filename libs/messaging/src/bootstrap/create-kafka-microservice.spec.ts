import { Injectable, Module } from '@nestjs/common';
import { createKafkaMicroservice } from './create-kafka-microservice';

class Missing {}

@Injectable()
class NeedsMissing {
  constructor(readonly missing: Missing) {}
}

/** A module whose provider needs one nobody provides: Nest cannot build it. */
@Module({ providers: [NeedsMissing] })
class BrokenModule {}

@Module({})
class EmptyModule {}

describe('createKafkaMicroservice', () => {
  // Nothing connects before listen(): no broker is needed to build (or fail to build) the app.
  const settings = { brokers: ['127.0.0.1:1'], clientId: 'create-kafka-microservice-spec', instanceId: 'a' };

  it("rejects with Nest's error for a module it cannot build, and the process goes on", async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => {
      throw new Error('process.exit called');
    }) as never);
    try {
      await expect(
        createKafkaMicroservice(BrokenModule, settings, 'group', { logger: false }),
      ).rejects.toThrow(/can't resolve dependencies of the NeedsMissing/);
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
    }
  });

  it('builds a module it can, without connecting', async () => {
    const app = await createKafkaMicroservice(EmptyModule, settings, 'group', { logger: false });
    await app.close();
  });
});
