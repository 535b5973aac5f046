import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Param, Post, Query } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { PublicRoute } from '../common/http/request-decorators';
import { Idempotent } from '../idempotency';
import { IdempotentResponseRepository } from '../idempotency/idempotent-response.repository';
import { ApiEnvelopedResponse, ApiErrorResponses } from './api-responses';
import { buildOpenApiDocument } from './openapi-document';

class ThingBodyDto {
  @ApiProperty() @IsString() @Matches(/^t_[a-z]+$/) name!: string;
  @ApiPropertyOptional({ default: 50 }) @IsOptional() @IsInt() @Min(0) @Max(100) weight?: number;
}

class ThingQuery {
  @ApiPropertyOptional({ default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}

class ThingDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) note!: string | null;
}

@Controller('things')
class ThingsController {
  @Post(':thingId')
  @HttpCode(200)
  @Idempotent({ required: true })
  @ApiEnvelopedResponse(200, ThingDto, 'The thing')
  @ApiErrorResponses('QUOTE_NOT_FOUND', 'SERVICE_UNAVAILABLE', { status: 404, description: 'No such thing' })
  create(@Param('thingId') thingId: string, @Body() body: ThingBodyDto): ThingDto {
    return { id: thingId + body.name, note: null };
  }

  @Get()
  @PublicRoute()
  @ApiEnvelopedResponse(200, ThingDto, 'A thing')
  list(@Query() query: ThingQuery): ThingDto {
    return { id: String(query.limit), note: null };
  }
}

// Preview mode still resolves the graph: the idempotency interceptor's store is named, never used.
// DiscoveryModule: the document finds the controllers through it, as in the gateway.
@Module({
  imports: [DiscoveryModule],
  controllers: [ThingsController],
  providers: [{ provide: IdempotentResponseRepository, useValue: {} }],
})
class ThingsModule {}

type Json = Record<string, any>;

describe('buildOpenApiDocument', () => {
  let document: Json;

  beforeAll(async () => {
    // Preview mode, as `npm run openapi` builds it: no provider runs.
    const app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    app.setGlobalPrefix('api/v1');
    document = buildOpenApiDocument(app) as unknown as Json;
    await app.close();
  });

  it('is OpenAPI 3.1 with one relative server and paths relative to it', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(Object.keys(document.paths).sort()).toEqual(['/things', '/things/{thingId}']);
    expect(JSON.stringify(document)).not.toContain('nullable');
  });

  it('declares bearer security honestly (an opaque key, no JWT) except on public routes', () => {
    expect(document.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(document.components.securitySchemes.bearer.bearerFormat).toBeUndefined();
    expect(document.paths['/things/{thingId}'].post.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/things'].get.security).toEqual([]);
  });

  it('derives the error statuses from the declared codes and the shell, each with the ApiError body', () => {
    const post = document.paths['/things/{thingId}'].post;
    expect(Object.keys(post.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    expect(post['x-error-codes']).toEqual(
      expect.arrayContaining([
        'QUOTE_NOT_FOUND',
        'SERVICE_UNAVAILABLE',
        'IDEMPOTENCY_KEY_REQUIRED',
        'UNAUTHORIZED',
      ]),
    );
    expect(post.responses['404'].description).toMatch(/^No such thing\n\nError codes:\n- `QUOTE_NOT_FOUND`/);
    expect(
      post.responses['404'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum,
    ).toEqual(['QUOTE_NOT_FOUND']);
    const get = document.paths['/things'].get;
    expect(Object.keys(get.responses).sort()).toEqual(['200', '400', '500']);
  });

  it('documents the envelope and the response headers as components', () => {
    const ok = document.paths['/things/{thingId}'].post.responses['200'];
    expect(ok.content['application/json'].schema).toEqual(
      expect.objectContaining({
        required: ['data', 'meta'],
        properties: {
          data: { $ref: '#/components/schemas/ThingDto' },
          meta: { $ref: '#/components/schemas/ApiMetaDto' },
        },
      }),
    );
    expect(Object.keys(ok.headers).sort()).toEqual([
      'Idempotency-Key',
      'Idempotent-Replayed',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'X-Request-Id',
    ]);
    expect(document.paths['/things/{thingId}'].post.responses['429'].headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    expect(document.paths['/things'].get.responses['200'].headers).toEqual({
      'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    });
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'RateLimit-Limit', 'Retry-After', 'Idempotency-Key']),
    );
  });

  it('carries the validation rules: integers, patterns, bounds; nullable as a null type; request defaults not required', () => {
    const body = document.components.schemas.ThingBodyDto;
    expect(body.properties.name).toEqual({ type: 'string', pattern: '^t_[a-z]+$' });
    expect(body.properties.weight).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 100,
      description: 'Default when omitted: 50.',
    });
    expect(body.required).toEqual(['name']);
    const limit = document.paths['/things'].get.parameters.find((p: Json) => p.name === 'limit');
    expect(limit).toEqual(
      expect.objectContaining({
        required: false,
        schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 200, default: 20 }),
      }),
    );
    expect(document.components.schemas.ThingDto.properties.note).toEqual({ type: ['string', 'null'] });
  });
});
