import { parseBudgetOverrides, parseWeiByChain } from './wei-settings';

describe('parseWeiByChain', () => {
  it('takes one amount for every chain', () => {
    const parsed = parseWeiByChain('5000', 'X', 7n);
    expect(parsed.ok && [parsed.value.of('devnet-a'), parsed.value.of('ethereum')]).toEqual([5000n, 5000n]);
  });

  it('takes amounts per chain, the "*" entry (else the fallback) for the others', () => {
    const perChain = parseWeiByChain('{"devnet-a": "1", "*": "9"}', 'X', 7n);
    expect(perChain.ok && [perChain.value.of('devnet-a'), perChain.value.of('base')]).toEqual([1n, 9n]);
    const noStar = parseWeiByChain('{"devnet-a": "1"}', 'X', 7n);
    expect(noStar.ok && noStar.value.of('base')).toBe(7n);
  });

  it.each([
    ['-1', /must be a decimal string of wei or a JSON object/],
    ['1.5', /must be a decimal string/],
    ['{"devnet-a": 1}', /X\["devnet-a"\] must be a decimal string of wei/],
    ['{"Devnet A": "1"}', /"Devnet A" is neither a chain id nor "\*"/],
    ['{"devnet-a": "1"', /X is not valid JSON/],
  ])('refuses %s', (text, problem) => {
    const parsed = parseWeiByChain(text, 'X', 0n);
    expect(parsed.ok ? 'ok' : parsed.problem).toMatch(problem);
  });
});

describe('parseBudgetOverrides', () => {
  it('gives every owner the default when unset', () => {
    const parsed = parseBudgetOverrides(undefined, 'O', 100n);
    expect(parsed.ok && parsed.value.dailyLimitOf('key-1', 'devnet-a')).toBe(100n);
  });

  it('overrides per owner, for every chain or per chain', () => {
    const parsed = parseBudgetOverrides(
      '{"key-1": "5", "key-2": {"devnet-a": "6", "*": "7"}, "key-3": {"devnet-b": "8"}}',
      'O',
      100n,
    );
    if (!parsed.ok) throw new Error(parsed.problem);
    const limits = parsed.value;
    expect([
      limits.dailyLimitOf('key-1', 'devnet-b'),
      limits.dailyLimitOf('key-2', 'devnet-a'),
      limits.dailyLimitOf('key-2', 'devnet-b'),
    ]).toEqual([5n, 6n, 7n]);
    expect([
      limits.dailyLimitOf('key-3', 'devnet-b'),
      limits.dailyLimitOf('key-3', 'devnet-a'),
      limits.dailyLimitOf('other', 'devnet-a'),
    ]).toEqual([8n, 100n, 100n]);
  });

  it.each([
    ['["key-1"]', /O must be a JSON object/],
    ['{"key-1": 5}', /O\["key-1"\] must be a decimal string of wei or an object/],
    ['{"key-1": {"devnet-a": "x"}}', /O\["key-1"\]\["devnet-a"\] must be a decimal string/],
    ['{"": "5"}', /an owner \(API key id\) is empty/],
  ])('refuses %s', (text, problem) => {
    const parsed = parseBudgetOverrides(text, 'O', 0n);
    expect(parsed.ok ? 'ok' : parsed.problem).toMatch(problem);
  });
});
