import { Body, Controller, Get, HttpCode, Module, Param, Post, Query } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { DataSource } from 'typeorm';
import { CodedError, ErrorCodes, Topics } from '@swapgw/contracts';
import { currentRequestContext } from '@swapgw/runtime';
import { ServiceClient } from '../../src/messaging/service-client';
import { IdempotencyKey, Owner } from '../../src/common/http/request-decorators';
import {
  IsBooleanLikeQuery,
  IsDecimalAmount,
  IsEvmAddress,
  IsTokenRefOverride,
  IsWalletAddress,
} from '../../src/common/validation';
import { Idempotent } from '../../src/idempotency';

/** A gate the test opens to let held probe requests finish (a latch, not a sleep). */
export class ProbeGate {
  private release!: () => void;
  private promise = new Promise<void>((resolve) => (this.release = resolve));
  wait(): Promise<void> {
    return this.promise;
  }
  open(): void {
    this.release();
  }
  reset(): void {
    this.promise = new Promise<void>((resolve) => (this.release = resolve));
  }
}

/** What the probe handlers did, for the tests to assert "exactly one execution". */
export const probeState = { executions: 0, gate: new ProbeGate(), held: 0 };

class ProbeOrderDto {
  @ApiProperty()
  @IsDecimalAmount({ maxDecimals: 6 })
  amount!: string;

  @ApiPropertyOptional({ enum: ['none', 'client', 'server', 'hold'] })
  @IsOptional()
  @IsIn(['none', 'client', 'server', 'hold'])
  behaviour?: 'none' | 'client' | 'server' | 'hold';

  @ApiPropertyOptional()
  @IsOptional()
  @IsWalletAddress()
  recipient?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEvmAddress()
  userAddress?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsTokenRefOverride()
  tokenRef?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10_000)
  slippageBps?: number;
}

class ProbeQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBooleanLikeQuery()
  supportedOnly?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  q?: string;
}

/** Test-only routes that exercise the shell the way feature modules will. */
@ApiTags('test-probe')
@Controller('test-probe')
class ProbeController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly services: ServiceClient,
  ) {}

  /** The request context as code deep in a handler (and the Kafka producer) sees it, after I/O. */
  @Post('context')
  async context(@Body() body: ProbeOrderDto): Promise<unknown> {
    await this.dataSource.query('SELECT 1');
    return { amount: body.amount, context: currentRequestContext() ?? null };
  }

  /** A service call that cannot be answered in time (1 ms bound). */
  @Get('service-timeout')
  serviceTimeout(@Query('as') as?: string): Promise<unknown> {
    return this.services.call(
      Topics.catalogRequests,
      'probe.unanswered',
      'probe',
      {},
      {
        timeoutMs: 1,
        unavailableAs: as === 'upstream' ? ErrorCodes.QUOTE_UPSTREAM_FAILED : undefined,
      },
    );
  }

  @Post('orders')
  @Idempotent({ required: true })
  async create(
    @Owner() owner: string,
    @IdempotencyKey() key: string,
    @Body() body: ProbeOrderDto,
  ): Promise<unknown> {
    probeState.executions += 1;
    const execution = probeState.executions;
    if (body.behaviour === 'hold') {
      probeState.held += 1;
      await probeState.gate.wait();
    }
    if (body.behaviour === 'client')
      throw new CodedError(ErrorCodes.INVALID_AMOUNT, 'probe refuses this amount');
    if (body.behaviour === 'server')
      throw new CodedError(ErrorCodes.SERVICE_UNAVAILABLE, 'probe upstream down');
    return { execution, owner, idempotencyKey: key, amount: body.amount };
  }

  @Post('orders/:orderId/replace')
  @HttpCode(202)
  @Idempotent({ required: false })
  replace(
    @Param('orderId') orderId: string,
    @IdempotencyKey() key: string,
    @Body() body: ProbeOrderDto,
  ): unknown {
    probeState.executions += 1;
    return { orderId, idempotencyKey: key, amount: body.amount, execution: probeState.executions };
  }

  @Post('echo')
  echo(@Body() body: ProbeOrderDto): unknown {
    return body;
  }

  @Get('query')
  query(@Query() query: ProbeQueryDto): unknown {
    return query;
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internal detail at /srv/app/probe.ts:42');
  }

  @Get('database')
  async database(): Promise<unknown> {
    const rows: Array<{ n: number }> = await this.dataSource.query('SELECT 1 AS n');
    return { n: rows[0].n };
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
