/**
 * A Fastify route template (`/api/v1/swap/:swapId/signing`, `/docs/*`) matched against concrete
 * paths: literal segments exactly, a `:param` segment any non-empty segment, a `*` segment the rest
 * of the path. Parsed once; used by the route table (which routes serve a path) and the edge of
 * cached reads (an answerer's route and its parameters).
 */
export class RouteTemplate {
  private readonly segments: Segment[];

  constructor(readonly url: string) {
    this.segments = url.split('/').map((segment): Segment => {
      if (segment.startsWith('*')) return { rest: true };
      if (segment.startsWith(':')) return { param: segment.slice(1) };
      return { literal: segment };
    });
  }

  /** The route's parameters in `path` (a path without its query string), or undefined when it does not match. */
  match(path: string): Record<string, string> | undefined {
    const parts = path.split('/');
    const params: Record<string, string> = {};
    for (let i = 0; i < this.segments.length; i += 1) {
      const segment = this.segments[i];
      if ('rest' in segment) return i < parts.length ? params : undefined;
      if (i >= parts.length) return undefined;
      if ('literal' in segment) {
        if (segment.literal !== parts[i]) return undefined;
      } else if (parts[i] === '') return undefined;
      else params[segment.param] = parts[i];
    }
    return parts.length === this.segments.length ? params : undefined;
  }
}

type Segment = { literal: string } | { param: string } | { rest: true };
