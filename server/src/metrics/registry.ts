import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (GET /metrics). One registry per process: the counters are the
 * process's since it started, as Prometheus expects. Every label value comes from a short fixed set
 * (route templates, status codes, outcomes), never from a path, number or user, so the series stay bounded.
 */
export const registry = new Registry();
// Process CPU, memory, handles, GC and the event loop's lag (nodejs_eventloop_lag_seconds and its percentiles).
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

export const httpRequests = new Counter({
  name: 'blast_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'blast_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const messages = new Counter({
  name: 'blast_messages_total',
  help: 'Blast sends recorded in the message log, by result (sent or failed)',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const engineTicks = new Histogram({
  name: 'blast_engine_tick_duration_seconds',
  help: "The engine's ticks (one transaction of claims, releases and records) and how long each took",
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const importRows = new Counter({
  name: 'blast_import_rows_total',
  help: 'Rows of contact-file imports, by outcome (added, or skipped: invalid, repeated, already listed or opted out)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookStatuses = new Counter({
  name: 'blast_webhook_statuses_total',
  help: 'Cloud API delivery statuses received, by status (sent, delivered, read, failed) or ignored',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const signInFailures = new Counter({
  name: 'blast_signin_failures_total',
  help: 'Sign-ins refused for a wrong email or password',
  registers: [registry],
});

export const signInLocks = new Counter({
  name: 'blast_signin_locked_total',
  help: 'Sign-ins refused because the account or the address is locked (429)',
  registers: [registry],
});

export const socketConnections = new Gauge({
  name: 'blast_socket_connections',
  help: 'Live (socket.io) connections open on this node',
  registers: [registry],
});

/** Counts a finished request under its route template: the matched API route, else a fixed group. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method: KNOWN_METHODS.has(method) ? method : 'OTHER', status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
  if (route === '/api/auth/login' && method === 'POST') {
    if (status === 401) signInFailures.inc();
    else if (status === 429) signInLocks.inc();
  }
}

const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
