import { getMetadataStorage } from 'class-validator';

type MetadataStorage = ReturnType<typeof getMetadataStorage>;
type TargetMetadatas = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;

const CACHED = Symbol.for('swapgw.validationMetadataCache');

/**
 * Keeps class-validator's answer to "which rules apply to this class" per class and options.
 * class-validator works it out again on every `validate` of every object and nested object, and
 * the work walks every class it knows (`instanceof` against each, for inherited rules): with the
 * suite's hundreds of message and DTO classes that was 2–4 % of each service's CPU in a flood
 * (issue 44, bench/README.md). The answer only changes when a rule is registered (a class defined
 * later), so registering a rule empties the cache. Idempotent: a second call does nothing.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  const patched = storage as MetadataStorage & { [CACHED]?: true };
  if (patched[CACHED]) return;
  patched[CACHED] = true;
  const cache = new Map<unknown, Map<string, TargetMetadatas>>();
  const compute = storage.getTargetValidationMetadatas.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    cache.clear();
    register(metadata);
  };
  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    const key = `${targetSchema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let ofTarget = cache.get(targetConstructor);
    if (!ofTarget) cache.set(targetConstructor, (ofTarget = new Map()));
    let metadatas = ofTarget.get(key);
    if (!metadatas) {
      metadatas = compute(targetConstructor, targetSchema, always, strictGroups, groups);
      ofTarget.set(key, metadatas);
    }
    return metadatas;
  };
}

/**
 * Works out now, for every class with validation rules, what its first validation would (the rules
 * that apply to it, with the options message validation uses: no groups, no schema) and keeps it in
 * the cache above, so the first messages of a flood do not each pay it: a start-up warm-up
 * (bootstrapKafkaService runs it before the consumer starts). Needs cacheValidationMetadata first
 * (else nothing is kept). Returns how many classes it worked out.
 */
export function warmValidationMetadata(storage: MetadataStorage = getMetadataStorage()): number {
  const rules = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  if (!(rules instanceof Map)) return 0;
  let classes = 0;
  for (const target of rules.keys()) {
    if (typeof target !== 'function') continue; // a schema by name: messages are classes
    storage.getTargetValidationMetadatas(target, undefined as unknown as string, false, false, undefined);
    classes++;
  }
  return classes;
}
