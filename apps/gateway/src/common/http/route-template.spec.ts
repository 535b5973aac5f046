import { RouteTemplate } from './route-template';

describe('RouteTemplate', () => {
  const signing = new RouteTemplate('/api/v1/swap/:swapId/signing');

  it('matches a concrete path and gives its parameters', () => {
    expect(signing.match('/api/v1/swap/abc/signing')).toEqual({ swapId: 'abc' });
  });

  it('does not match other literals, an empty parameter, or more or fewer segments', () => {
    expect(signing.match('/api/v1/swaps/abc/signing')).toBeUndefined();
    expect(signing.match('/api/v1/swap//signing')).toBeUndefined();
    expect(signing.match('/api/v1/swap/abc/signing/')).toBeUndefined();
    expect(signing.match('/api/v1/swap/abc')).toBeUndefined();
  });

  it('matches literal-only templates exactly', () => {
    const chains = new RouteTemplate('/api/v1/chains');
    expect(chains.match('/api/v1/chains')).toEqual({});
    expect(chains.match('/api/v1/chains/')).toBeUndefined();
  });

  it('lets a * segment take the rest of the path, but not its absence', () => {
    const docs = new RouteTemplate('/docs/*');
    expect(docs.match('/docs/')).toEqual({});
    expect(docs.match('/docs/static/index.css')).toEqual({});
    expect(docs.match('/docs')).toBeUndefined();
  });
});
