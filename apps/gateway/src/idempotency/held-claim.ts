import {
  ClaimCompletion,
  completionOf,
  IdempotencyClaim,
  StoredResponse,
} from './idempotent-response.repository';

/**
 * The claim a request holds on its Idempotency-Key while its handler runs (`request.idempotencyClaim`), for
 * handlers that save round trips to PostgreSQL: the answer of the read that travelled with the
 * claim (`readWithClaim` of @Idempotent()), and the completion of the claim as part of the
 * handler's own statement, so that its change and its stored response commit together.
 */
export class HeldIdempotencyClaim {
  private completedByHandler = false;

  constructor(
    readonly claim: IdempotencyClaim,
    /** What the route's readWithClaim answered (null: nothing found); undefined when it has none. */
    readonly readWithClaim: unknown,
  ) {}

  /**
   * Completes the claim with the answer the handler is about to give (`status`, `data`: what it
   * returns), inside the statement the handler passes it to. The statement calls `completed()` when
   * it did; otherwise the interceptor stores the answer after the handler, as for any handler.
   */
  completionWith(status: number, data: unknown): ClaimCompletion {
    const response: StoredResponse = { kind: 'data', data: data ?? null };
    return {
      completeFor: (source, parameters) => completionOf(this.claim, status, response, parameters, source),
      terms: { claim: this.claim, status, response },
      completed: () => {
        this.completedByHandler = true;
      },
    };
  }

  /** The handler's statement stored the answer already. */
  get completed(): boolean {
    return this.completedByHandler;
  }
}
