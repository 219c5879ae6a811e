/** The part of autocannon's library API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface RequestData {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      [key: string]: unknown;
    }

    interface Request extends RequestData {
      setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData | null;
    }

    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      duration?: number;
      amount?: number;
      maxOverallRequests?: number;
      /** Milliseconds between samples; a run ends at a sample tick. */
      sampleInt?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      excludeErrorStats?: boolean;
    }

    interface Histogram {
      average: number;
      mean: number;
      min: number;
      max: number;
      p50: number;
      p99: number;
      total?: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram & { sent: number };
    }

    interface Instance extends EventEmitter {
      stop(): void;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export default autocannon;
}
