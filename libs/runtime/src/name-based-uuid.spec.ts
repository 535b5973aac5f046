import { nameBasedUuid } from './name-based-uuid';

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
