// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Histogram = { average: number; p50: number; p99: number; total: number };
  type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
  };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    requests?: Request[];
  };
  type Result = {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    non2xx: number;
    /** Responses per status code (autocannon's own per-code counts). */
    statusCodeStats?: Record<string, { count: number }>;
    errors: number;
    timeouts: number;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
