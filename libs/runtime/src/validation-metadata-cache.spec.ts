import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, Min, validateSync, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import { cacheValidationMetadata, warmValidationMetadata } from './validation-metadata-cache';

class Leg {
  @IsString()
  chain!: string;
}

class Order {
  @IsInt()
  @Min(1)
  amount!: number;

  @ValidateNested()
  @Type(() => Leg)
  leg!: Leg;
}

const errorsOf = (cls: new () => object, plain: object) =>
  validateSync(plainToInstance(cls, plain)).map((e) => ({
    property: e.property,
    constraints: e.constraints,
    children: e.children?.length,
  }));

describe('cacheValidationMetadata', () => {
  it('validates exactly as class-validator does, nested and inherited rules included, and computes each class once', () => {
    const before = [
      errorsOf(Order, { amount: 0, leg: { chain: 7 } }),
      errorsOf(Order, { amount: 3, leg: { chain: 'base' } }),
    ];
    // Count what class-validator itself works out, under the cache.
    const storage = getMetadataStorage();
    const computeUncached = storage.getTargetValidationMetadatas.bind(storage);
    let computed = 0;
    storage.getTargetValidationMetadatas = (...args) => {
      computed++;
      return computeUncached(...args);
    };
    cacheValidationMetadata();
    cacheValidationMetadata(); // a second call changes nothing
    expect(errorsOf(Order, { amount: 0, leg: { chain: 7 } })).toEqual(before[0]);
    expect(errorsOf(Order, { amount: 3, leg: { chain: 'base' } })).toEqual(before[1]);
    expect(errorsOf(Order, { amount: 4, leg: { chain: 'solana' } })).toEqual([]);
    // Order and Leg, once each, for three validations.
    expect(computed).toBe(2);
    expect(before[0]).toHaveLength(2);
    expect(before[1]).toEqual([]);

    class LimitOrder extends Order {
      @IsString()
      side!: string;
    }
    // A class defined after the cache filled: its own rules and its parent's apply.
    expect(
      errorsOf(LimitOrder, { amount: 0, leg: { chain: 'base' }, side: 1 })
        .map((e) => e.property)
        .sort(),
    ).toEqual(['amount', 'side']);
  });

  it('forgets what it kept when a rule is registered later for a class already validated', () => {
    cacheValidationMetadata();
    class Late {
      @IsString()
      name!: string;
    }
    expect(errorsOf(Late, { name: 'x', extra: 1 })).toEqual([]);
    // A decorator applied afterwards (what a class defined later in a module does).
    Min(5)(Late.prototype, 'size');
    expect(errorsOf(Late, { name: 'x', size: 1 }).map((e) => e.property)).toEqual(['size']);
  });

  it('warmValidationMetadata works out every class up front, with the arguments validateSync asks with, so no first validation computes', () => {
    class Quote {}
    class Route {}
    const compute = jest.fn(() => []);
    const fake = {
      validationMetadatas: new Map<unknown, unknown[]>([
        [Quote, []],
        [Route, []],
        ['a-schema-by-name', []],
      ]),
      getTargetValidationMetadatas: compute,
      addValidationMetadata: () => undefined,
    } as unknown as ReturnType<typeof getMetadataStorage>;
    cacheValidationMetadata(fake);
    expect(warmValidationMetadata(fake)).toBe(2);
    expect(compute.mock.calls).toEqual([
      [Quote, undefined, false, false, undefined],
      [Route, undefined, false, false, undefined],
    ]);
    // What class-validator's executor asks on a validateSync(object, options without groups).
    fake.getTargetValidationMetadatas(Quote, undefined as unknown as string, false, false, undefined);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('warmValidationMetadata, on the real storage, leaves validation as it was', () => {
    cacheValidationMetadata();
    expect(warmValidationMetadata()).toBeGreaterThan(0);
    expect(
      errorsOf(Order, { amount: 0, leg: { chain: 7 } })
        .map((e) => e.property)
        .sort(),
    ).toEqual(['amount', 'leg']);
  });
});
