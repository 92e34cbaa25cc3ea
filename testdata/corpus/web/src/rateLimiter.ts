/**
 * Client-side rate limiting for the storefront's calls to the Pelican API.
 *
 * The server allows 50 requests per second per client with bursts of 100.
 * Rather than discovering the limit through 429 responses, the client keeps a
 * token bucket with the same shape and waits for a token before each request.
 */

export interface RateLimiterOptions {
  /** Tokens added per second (the sustained request rate). */
  ratePerSecond: number;
  /** Maximum number of tokens the bucket holds (the burst size). */
  burst: number;
  /** Clock, injectable for tests. Returns milliseconds. */
  now?: () => number;
}

export class RateLimitExceededError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`rate limit exceeded; retry after ${retryAfterMs} ms`);
    this.name = "RateLimitExceededError";
  }
}

export class TokenBucket {
  private tokens: number;
  private lastRefill: number;
  private readonly rate: number;
  private readonly capacity: number;
  private readonly now: () => number;
  private waiters: Array<() => void> = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor({ ratePerSecond, burst, now = () => Date.now() }: RateLimiterOptions) {
    if (ratePerSecond <= 0 || burst < 1) {
      throw new RangeError("ratePerSecond must be positive and burst at least 1");
    }
    this.rate = ratePerSecond / 1000; // tokens per millisecond
    this.capacity = burst;
    this.tokens = burst;
    this.now = now;
    this.lastRefill = now();
  }

  /** Takes a token if one is available, without waiting. */
  tryAcquire(): boolean {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  /** Milliseconds until the next token becomes available (0 if one is ready). */
  msUntilNextToken(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.rate);
  }

  /**
   * Waits for a token. Waiters are served in arrival order so that a burst of
   * calls cannot starve an earlier one. Rejects if the wait would exceed maxWaitMs.
   */
  acquire(maxWaitMs = Infinity): Promise<void> {
    if (this.waiters.length === 0 && this.tryAcquire()) {
      return Promise.resolve();
    }
    const expectedWait = this.msUntilNextToken() + this.waiters.length / this.rate;
    if (expectedWait > maxWaitMs) {
      return Promise.reject(new RateLimitExceededError(Math.ceil(expectedWait)));
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private refill(): void {
    const t = this.now();
    const elapsed = t - this.lastRefill;
    if (elapsed > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.rate);
      this.lastRefill = t;
    }
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      while (this.waiters.length > 0 && this.tryAcquire()) {
        this.waiters.shift()!();
      }
      if (this.waiters.length > 0) this.schedule();
    }, this.msUntilNextToken());
  }
}

/** Wraps fetch so that every call first takes a token from the bucket. */
export function rateLimitedFetch(bucket: TokenBucket, maxWaitMs = 5000): typeof fetch {
  return async (input, init) => {
    await bucket.acquire(maxWaitMs);
    const response = await fetch(input, init);
    if (response.status === 429) {
      const retryAfter = Number(response.headers.get("Retry-After") ?? "1");
      throw new RateLimitExceededError(retryAfter * 1000);
    }
    return response;
  };
}
