import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { WAIT_FOR_TX_REQUEST_MS } from './build-swap.dto';

/** The longest a signing poll waits for its payload; the build's bound. */
export const SIGNING_POLL_WAIT_MS = { min: 0, max: WAIT_FOR_TX_REQUEST_MS.max, default: 0 } as const;

/** Query of GET /swap/{swapId}/signing. */
export class SigningPollQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: SIGNING_POLL_WAIT_MS.min,
    maximum: SIGNING_POLL_WAIT_MS.max,
    default: SIGNING_POLL_WAIT_MS.default,
    description:
      'How long the poll may wait for a payload, as the build waits: the answer comes as soon as a payload is ready (200) or the swap ' +
      'reaches a verdict, else a 202 at the end of the wait. 0 answers at once. A client that sends it polls again right after a 202 ' +
      'that took at least pollAfterMs (a server that ignores it answers at once: then wait pollAfterMs)',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(SIGNING_POLL_WAIT_MS.min)
  @Max(SIGNING_POLL_WAIT_MS.max)
  waitForTxRequestMs?: number;
}
