import { RouteTemplate } from './route-template';

/**
 * Every route the Fastify instance serves, collected from its onRoute hook. Lets the error filter
 * tell an unknown path (404) from a known path with the wrong method (405 + Allow), and lets tests
 * compare what is served with what the OpenAPI document declares.
 */
export interface ServedRoute {
  method: string;
  /** Fastify route template, e.g. /api/v1/swap/:swapId/signing */
  url: string;
}

export class RouteTable {
  private readonly routes: Array<ServedRoute & { template: RouteTemplate }> = [];

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: m.toUpperCase(), url, template: new RouteTemplate(url) });
    }
  }

  all(): ServedRoute[] {
    return this.routes.map(({ method, url }) => ({ method, url }));
  }

  /** Methods served for a concrete path (query string ignored), sorted; empty when the path is unknown. */
  methodsFor(path: string): string[] {
    const pathname = path.split('?')[0];
    const methods = new Set(
      this.routes.filter((r) => r.template.match(pathname) !== undefined).map((r) => r.method),
    );
    return [...methods].sort();
  }
}
