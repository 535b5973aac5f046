import type { components } from './gateway-api';

type ApiErrorBody = components['schemas']['ApiErrorBodyDto'];

/** An error answer of the gateway: its HTTP status and the stable `code` of the error catalog. */
export class GatewayApiError extends Error {
  readonly code: string;
  readonly details: ApiErrorBody['details'];
  constructor(
    readonly status: number,
    error: Pick<ApiErrorBody, 'code' | 'message' | 'details'>,
  ) {
    super(`${status} ${error.code}: ${error.message}`);
    this.name = 'GatewayApiError';
    this.code = error.code;
    this.details = error.details;
  }

  /** From an answer that is not what was asked for (its body is the ApiError envelope when the gateway wrote it). */
  static async fromResponse(response: Response): Promise<GatewayApiError> {
    const text = await response.text().catch(() => '');
    try {
      const body = JSON.parse(text) as { error?: ApiErrorBody };
      if (body.error?.code) return new GatewayApiError(response.status, body.error);
    } catch {
      // not JSON: a proxy's page
    }
    return new GatewayApiError(response.status, {
      code: 'HTTP_ERROR',
      message: text.slice(0, 200) || response.statusText,
    });
  }
}
