import { nameBasedUuid, timeOrderedUuid } from './uuids';

describe('nameBasedUuid', () => {
  it('is UUID v5: the well-known value of www.example.com in the DNS namespace', () => {
    expect(nameBasedUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => nameBasedUuid('not-a-uuid', 'x')).toThrow('not a UUID namespace');
  });
});

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID carrying the millisecond it was made in, and sorts by it', () => {
    const at = Date.UTC(2026, 10, 27, 17, 0, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    const later = timeOrderedUuid(at + 1);
    expect([later, id].sort()).toEqual([id, later]);
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(at))).size).toBe(1000);
    expect(() => timeOrderedUuid(-1)).toThrow();
  });
});
