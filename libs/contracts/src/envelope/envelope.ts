import { IsInt, IsNotEmpty, IsObject, IsString, IsUUID, Min } from 'class-validator';

/** Header names carried by every Kafka message of the suite. */
export const MessageHeaders = {
  traceparent: 'traceparent',
  requestId: 'x-request-id',
} as const;

/**
 * The one envelope of every message on every topic. `payload` is validated separately: each consumer
 * maps the `type`s it handles to their payload classes (the `payload` of its RequestHandlers /
 * StreamHandlers in @swapgw/messaging); a type it has no handler for, or an invalid payload, is
 * dead-lettered.
 */
export interface MessageEnvelope<P = unknown> {
  eventId: string;
  type: string;
  version: number;
  occurredAtMs: number;
  aggregateId: string;
  payload: P;
}

/** class-validator shape of the envelope, checked on arrival before the payload is. */
export class MessageEnvelopeShape implements MessageEnvelope<Record<string, unknown>> {
  @IsUUID()
  eventId!: string;

  @IsString()
  @IsNotEmpty()
  type!: string;

  @IsInt()
  @Min(1)
  version!: number;

  @IsInt()
  @Min(0)
  occurredAtMs!: number;

  @IsString()
  @IsNotEmpty()
  aggregateId!: string;

  @IsObject()
  payload!: Record<string, unknown>;
}

/** Answer of every request-reply handler: errors travel as data, never as thrown RPC exceptions. */
export type ReplyEnvelope<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; details?: Record<string, unknown> } };

export const replyOk = <T>(data: T): ReplyEnvelope<T> => ({ ok: true, data });
export const replyError = (
  code: string,
  message: string,
  details?: Record<string, unknown>,
): ReplyEnvelope<never> => ({ ok: false, error: details ? { code, message, details } : { code, message } });
