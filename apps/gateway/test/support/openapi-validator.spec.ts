import fs from 'node:fs';
import path from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OpenApiValidator } from './openapi-validator';

const committed = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', '..', 'openapi.json'), 'utf8'),
) as OpenAPIObject;

const meta = { requestId: 'req-1', timestamp: '2026-01-01T00:00:00.000Z' };

describe('OpenApiValidator on the committed document (apps/gateway/openapi.json)', () => {
  const validator = new OpenApiValidator(committed);

  it('compiles every documented response schema under strict JSON Schema 2020-12', () => {
    const problems: string[] = [];
    for (const [template, item] of Object.entries(committed.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses?: Record<string, { content?: unknown }> }>,
      )) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!response.content) continue;
          const result = validator.check(method.toUpperCase(), template, Number(status), undefined);
          // Only a compilation failure matters here: `undefined` is refused by every schema.
          problems.push(...result.problems.filter((p) => p.startsWith('could not compile')));
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('matches concrete paths with or without the server base path', () => {
    expect(validator.basePath).toBe('/api/v1');
    expect(validator.templateOf('/api/v1/swap/abc/signing')).toBe('/swap/{swapId}/signing');
    expect(validator.templateOf('/swap/abc/signing?x=1')).toBe('/swap/{swapId}/signing');
    expect(validator.templateOf('/api/v1/api/v1/chains')).toBeUndefined();
  });

  it('accepts what the server sends and refuses what the document does not promise', () => {
    const validationError = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Invalid request: limit',
        details: { fields: [{ field: 'limit', reasons: ['limit must be an integer number'] }] },
      },
      meta,
    };
    expect(validator.check('GET', '/limit-orders/limits', 400, validationError)).toEqual({
      valid: true,
      problems: [],
    });
    // A code of another status, or one the route does not declare, is refused.
    expect(
      validator.check('GET', '/limit-orders/limits', 400, {
        ...validationError,
        error: { code: 'INVALID_CURSOR', message: 'm' },
      }).valid,
    ).toBe(false);
    expect(
      validator.check('GET', '/limit-orders/limits', 409, {
        error: { code: 'IDEMPOTENCY_CONFLICT', message: 'm' },
        meta,
      }).valid,
    ).toBe(false);
    // The 202 envelope: the pending signing fields are null, present and typed.
    const pending = {
      data: {
        swapId: 's',
        mode: 'async',
        nextAction: 'poll',
        pollAfterMs: 1000,
        status: 'planning',
        signing: { step: null, expiresAtMs: null, readyAtMs: null },
      },
      meta,
    };
    expect(validator.check('GET', '/swap/s/signing', 202, pending)).toEqual({ valid: true, problems: [] });
    const withoutStep = {
      ...pending,
      data: { ...pending.data, signing: { expiresAtMs: null, readyAtMs: null } },
    };
    expect(validator.check('GET', '/swap/s/signing', 202, withoutStep).valid).toBe(false);
    // Nullable fields accept null (OpenAPI 3.1 types, not the 3.0 `nullable` a strict validator ignores).
    expect(
      validator.check('GET', '/status/transaction/0xabc', 200, {
        data: { txHash: '0x', chain: 'devnet-a', status: 'pending' },
        meta,
      }).valid,
    ).toBe(true);
  });
});
