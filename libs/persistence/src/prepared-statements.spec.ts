import { StatementNames } from './prepared-statements';

describe('StatementNames', () => {
  it('names a text the third time it is asked for, and keeps that name', () => {
    const names = new StatementNames(3, 10);
    expect(names.nameOf('SELECT $1')).toBeUndefined();
    expect(names.nameOf('SELECT $1')).toBeUndefined();
    const name = names.nameOf('SELECT $1');
    expect(name).toBe('swapgw_1');
    expect(names.nameOf('SELECT $1')).toBe(name);
  });

  it('gives different texts different names', () => {
    const names = new StatementNames(1, 10);
    expect(names.nameOf('SELECT $1')).toBe('swapgw_1');
    expect(names.nameOf('SELECT $1::int')).toBe('swapgw_2');
  });

  it('names no more than its cap; named texts keep their names', () => {
    const names = new StatementNames(1, 2);
    names.nameOf('a');
    names.nameOf('b');
    expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('a')).toBe('swapgw_1');
    expect(names.namedCount).toBe(2);
  });

  it('forgets its counts when too many texts are counted, so one-off texts cannot grow it', () => {
    const names = new StatementNames(2, 10, 3);
    names.nameOf('hot');
    for (const oneOff of ['x', 'y', 'z']) names.nameOf(oneOff);
    // The count of 'hot' was dropped with the others: two more asks name it.
    expect(names.nameOf('hot')).toBeUndefined();
    expect(names.nameOf('hot')).toBe('swapgw_1');
  });
});

describe('StatementNames.forget', () => {
  it('names a forgotten text again, under a new name', () => {
    const names = new StatementNames(2, 10);
    names.nameOf('SELECT $1');
    expect(names.nameOf('SELECT $1')).toBe('swapgw_1');
    names.forget('SELECT $1');
    expect(names.nameOf('SELECT $1')).toBeUndefined();
    expect(names.nameOf('SELECT $1')).toBe('swapgw_2');
  });
});
