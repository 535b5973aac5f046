import { describeRequestDefaults, toJsonSchema2020 } from './json-schema-2020';

describe('OpenAPI 3.1 schemas out of @nestjs/swagger output', () => {
  it('turns nullable into a null type, a null enum member or an anyOf with null', () => {
    expect(toJsonSchema2020({ type: 'string', nullable: true, description: 'd' })).toEqual({
      type: ['string', 'null'],
      description: 'd',
    });
    expect(toJsonSchema2020({ type: 'null', nullable: true })).toEqual({ type: 'null' });
    expect(toJsonSchema2020({ type: 'string', enum: ['a'], nullable: true })).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
    expect(toJsonSchema2020({ $ref: '#/components/schemas/X', nullable: true, description: 'd' })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    });
    expect(toJsonSchema2020({ type: 'integer', nullable: false })).toEqual({ type: 'integer' });
  });

  it('converts nested schemas anywhere in the document and leaves the rest alone', () => {
    const document = {
      paths: {
        '/a': {
          get: {
            responses: {
              '200': {
                content: {
                  'application/json': { schema: { properties: { n: { type: 'number', nullable: true } } } },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: { list: { type: 'array', items: { type: 'string', nullable: true } } },
          },
        },
      },
    };
    const converted = toJsonSchema2020(document) as typeof document;
    expect(JSON.stringify(converted)).not.toContain('nullable');
    expect(converted.components.schemas.A.properties.list.items).toEqual({ type: ['string', 'null'] });
  });

  it('moves request-only defaults into the description, keeps them on response schemas', () => {
    const document = {
      paths: {
        '/a': {
          post: {
            requestBody: {
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } },
            },
            responses: {
              '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Shared' } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Body: {
            type: 'object',
            properties: {
              slippageBps: { type: 'integer', default: 50, description: 'Slippage' },
              nested: { $ref: '#/components/schemas/Nested' },
            },
          },
          Nested: { type: 'object', properties: { wait: { type: 'integer', default: 8000 } } },
          Shared: { type: 'object', properties: { limit: { type: 'integer', default: 20 } } },
        },
      },
    };
    describeRequestDefaults(document);
    const schemas = document.components.schemas as Record<
      string,
      { properties: Record<string, Record<string, unknown>> }
    >;
    expect(schemas.Body.properties.slippageBps).toEqual({
      type: 'integer',
      description: 'Slippage. Default when omitted: 50.',
    });
    expect(schemas.Nested.properties.wait).toEqual({
      type: 'integer',
      description: 'Default when omitted: 8000.',
    });
    expect(schemas.Shared.properties.limit.default).toBe(20);
  });
});
