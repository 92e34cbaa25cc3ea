// Thin client for the Pelican order API used by the storefront.
// Handles authentication headers, access-token renewal and JSON errors.

const DEFAULT_BASE_URL = "https://pelican.harbourside.example";

export class ApiError extends Error {
  constructor(status, code, message, traceId) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.traceId = traceId;
  }
}

export function createClient({ baseUrl = DEFAULT_BASE_URL, session, fetchImpl = fetch } = {}) {
  async function request(method, path, body, { retryOnUnauthorized = true } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const token = await session.accessToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    const response = await fetchImpl(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });

    // An expired access token: renew once with the refresh token and try again.
    if (response.status === 401 && retryOnUnauthorized) {
      await session.renew();
      return request(method, path, body, { retryOnUnauthorized: false });
    }
    if (response.status === 204) return null;

    const traceId = response.headers.get("X-Trace-Id");
    const payload = await response.json().catch(() => ({}));
    if (!response.ok) {
      const err = payload.error ?? {};
      throw new ApiError(response.status, err.code ?? "unknown", err.message ?? response.statusText, traceId);
    }
    return payload;
  }

  return {
    listOrders: ({ limit = 20, cursor } = {}) => {
      const params = new URLSearchParams({ limit: String(limit) });
      if (cursor) params.set("cursor", cursor);
      return request("GET", `/v1/orders?${params}`);
    },
    getOrder: (id) => request("GET", `/v1/orders/${encodeURIComponent(id)}`),
    createOrder: (order, idempotencyKey = crypto.randomUUID()) =>
      request("POST", "/v1/orders", { ...order, idempotency_key: idempotencyKey }),
    cancelOrder: (id, reason) =>
      request("POST", `/v1/orders/${encodeURIComponent(id)}:cancel`, { reason }),
    shipmentEvents: (shipmentId) =>
      request("GET", `/v1/shipments/${encodeURIComponent(shipmentId)}/events`),
  };
}
