/** Thrown by a provider that answered but has no route for the request: not a failure. */
export class NoRouteError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NoRouteError';
  }
}
