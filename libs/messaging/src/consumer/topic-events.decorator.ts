import { EventPattern } from '@nestjs/microservices';

/**
 * Subscribes a handler `(message: unknown, ctx: KafkaContext)` to the events of `topic`: Nest's
 * `@EventPattern`, on its untyped overload. NestJS 12 types a string pattern's handler as
 * `(data, ...args: unknown[])`, which a `KafkaContext` parameter does not satisfy; our handlers
 * take the raw message anyway and validate its envelope themselves (IdempotentConsumer).
 */
export const TopicEvents = (topic: string): MethodDecorator => EventPattern<string>(topic);
