import { MessageHeaders } from '@swapgw/contracts';
import { currentRequestContext, isTracing, SpanKinds, startTrace } from '@swapgw/runtime';
import { Kafka, Message, Producer, RecordMetadata } from 'kafkajs';
import { EnvelopeHeaders, headerString } from '../envelope/message-headers';
import { coalescedSends } from './coalesced-sends';

/**
 * Producer spans for every Kafka send: the one place sends go through is the kafkajs Producer, and
 * every producer of the suite comes from a Kafka client passed through `withSuiteProducers` (ours,
 * and the ones Nest's ClientKafka and ServerKafka create: see PerInstanceReplyClientKafka and
 * KeyOrderedKafkaServer). With tracing off, send and sendBatch are called as they are.
 *
 * One PRODUCER span per message, named `<topic> send` with the messaging semantic conventions, child
 * of the traceparent the message's headers already carry (the context it was written in: for the
 * outbox relay that is the request or message that wrote the row, not the relay's sweep), else of
 * the current request context. The span's own traceparent replaces the header, so the consumer span
 * of the next service is the producer span's child. It ends when the broker acknowledged the send,
 * failed when the send failed.
 */
export function tracedSends(producer: Producer): Producer {
  const send = producer.send.bind(producer);
  const sendBatch = producer.sendBatch.bind(producer);
  producer.send = (record) => {
    if (!isTracing()) return send(record);
    const spans = startSendSpans(record.topic, record.messages);
    return settled(send({ ...record, messages: spans.messages }), spans.end);
  };
  producer.sendBatch = (batch) => {
    if (!isTracing() || !batch.topicMessages) return sendBatch(batch);
    const ends: Array<(error?: unknown) => void> = [];
    const topicMessages = batch.topicMessages.map(({ topic, messages }) => {
      const spans = startSendSpans(topic, messages);
      ends.push(spans.end);
      return { topic, messages: spans.messages };
    });
    return settled(sendBatch({ ...batch, topicMessages }), (error) => ends.forEach((end) => end(error)));
  };
  return producer;
}

/**
 * The Kafka client with every producer it creates as the suite's producers send: traced
 * (tracedSends, in the caller's context), and the sends of one event-loop turn coalesced into one
 * produce request below the tracing (coalescedSends).
 */
export function withSuiteProducers(kafka: Kafka): Kafka {
  const producer = kafka.producer.bind(kafka);
  kafka.producer = (config) => tracedSends(coalescedSends(producer(config)));
  return kafka;
}

function startSendSpans(
  topic: string,
  messages: Message[],
): { messages: Message[]; end: (error?: unknown) => void } {
  const ends: Array<(error?: unknown) => void> = [];
  const traced = messages.map((message) => {
    const headers = message.headers as Record<string, unknown> | undefined;
    const eventId = headerString(headers, EnvelopeHeaders.eventId);
    const span = startTrace(
      SpanKinds.producer,
      {
        traceparent:
          headerString(headers, MessageHeaders.traceparent) ?? currentRequestContext()?.traceparent,
      },
      () => ({
        name: `${topic} send`,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': topic,
          'messaging.operation.type': 'send',
          'messaging.operation.name': 'send',
          ...(eventId ? { 'messaging.message.id': eventId } : {}),
        },
      }),
    );
    if (span.end) ends.push(span.end);
    return {
      ...message,
      headers: { ...message.headers, [MessageHeaders.traceparent]: span.context.traceparent },
    };
  });
  return { messages: traced, end: (error) => ends.forEach((end) => end(error)) };
}

async function settled(
  sending: Promise<RecordMetadata[]>,
  end: (error?: unknown) => void,
): Promise<RecordMetadata[]> {
  try {
    const metadata = await sending;
    end();
    return metadata;
  } catch (error) {
    end(error);
    throw error;
  }
}
