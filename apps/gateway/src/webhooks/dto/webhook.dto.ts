import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';

export const DELIVERY_LIST_DEFAULT = 20;
export const DELIVERY_LIST_MAX = 100;

/** Body of POST /webhooks. */
export class CreateWebhookDto {
  @ApiProperty({
    maxLength: 2048,
    description:
      'Where deliveries are POSTed: an absolute https URL whose host is not a private, loopback or link-local address',
    example: 'https://hooks.example.com/swapgw',
  })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENT_TYPES,
    description: 'Event types to receive; absent or empty means every type, including types added later',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  eventTypes?: string[];
}

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({
    type: [String],
    enum: WEBHOOK_EVENT_TYPES,
    description: 'The types delivered; every type when subscribed to all',
  })
  eventTypes!: string[];
  @ApiProperty({ description: 'True when subscribed to every type (eventTypes absent or empty at creation)' })
  allEventTypes!: boolean;
  @ApiProperty({ description: 'Epoch milliseconds' }) createdAtMs!: number;
}

export class WebhookCreatedResponse extends WebhookResponse {
  @ApiProperty({
    description:
      'Signing secret of the deliveries (Standard Webhooks `webhook-signature`): `whsec_` + base64 of 32 random bytes. Shown only in this answer: store it now.',
  })
  secret!: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) items!: WebhookResponse[];
}

export class WebhookDeletedResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid', description: 'Delivery id: the Webhook-Id header and `id` of the body' })
  id!: string;
  @ApiProperty({
    description:
      'Source event id (`eventId` of the body): the same event never makes two deliveries to one webhook',
  })
  eventId!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) eventType!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'dead'] }) status!: 'pending' | 'delivered' | 'dead';
  @ApiProperty({ description: 'Attempts made so far' }) attempts!: number;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'When the next attempt is due (pending only), epoch ms',
  })
  nextAttemptAtMs!: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) lastAttemptAtMs!: number | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'HTTP status of the last answer; null when none came',
  })
  lastResponseStatus!: number | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Why the last attempt failed without an answer (timeout, refused target, ...)',
  })
  lastError!: string | null;
  @ApiProperty() createdAtMs!: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) deliveredAtMs!: number | null;
}

export class WebhookDeliveryListResponse {
  @ApiProperty({ type: [WebhookDeliveryResponse] }) items!: WebhookDeliveryResponse[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for older deliveries; null at the end',
  })
  nextCursor!: string | null;
}

/** Query of GET /webhooks/{id}/deliveries. */
export class ListWebhookDeliveriesQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: DELIVERY_LIST_MAX, default: DELIVERY_LIST_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DELIVERY_LIST_MAX)
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
