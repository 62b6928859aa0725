import crypto from 'node:crypto';
import type { AppContext } from '../context';
import { HttpError } from '../lib/errors';
import { leaseKeeper } from './keeper';
import type { RedisLink } from './redis';

type Handler = (args: unknown) => Promise<unknown>;

interface Request {
  t: 'req';
  id: string;
  op: string;
  args: unknown;
  from: string;
}

interface Reply {
  t: 'res';
  id: string;
  ok: boolean;
  value?: unknown;
  error?: { status: number; msg: string; extra: HttpError['extra'] };
}

/**
 * Calls between nodes over Redis, for state that lives in one node's memory: a device being linked
 * exists in the gateway session of the node that started it. A node records what it holds under a
 * key (`claim`), and a node asked about it forwards the call to the holder (`call`), which answers
 * with the value or the HttpError it raised. Each node listens on its own channel.
 */
export class NodeBus {
  private readonly handlers = new Map<string, Handler>();
  private readonly waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout }>();
  private started: Promise<void> | null = null;

  constructor(
    private readonly redis: RedisLink,
    readonly node: string,
    private readonly log: AppContext['log'],
  ) {}

  private channel(node: string): string {
    return `${this.redis.prefix}node:${node}`;
  }

  /** Subscribes to this node's channel (once). */
  start(): Promise<void> {
    this.started ??= this.redis.sub.subscribe(this.channel(this.node), (raw) => void this.receive(raw));
    return this.started;
  }

  handle(op: string, fn: Handler): void {
    this.handlers.set(op, fn);
  }

  /** Records that this node holds `key` (for `ttlMs`). */
  async claim(key: string, ttlMs: number): Promise<void> {
    await this.redis.pub.set(`${this.redis.prefix}${key}`, this.node, { PX: ttlMs });
  }

  /** The node holding `key`, or null. */
  async holder(key: string): Promise<string | null> {
    return (await this.redis.pub.get(`${this.redis.prefix}${key}`)) ?? null;
  }

  /** Runs `op` on `node`; rejects with the HttpError it raised there, or 503 when it does not answer in time. */
  async call(node: string, op: string, args: unknown, timeoutMs: number): Promise<unknown> {
    await this.start();
    const id = crypto.randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new HttpError(503, 'Server sedang sibuk, silahkan coba lagi'));
      }, timeoutMs);
      timer.unref();
      this.waiting.set(id, { resolve, reject, timer });
    });
    const request: Request = { t: 'req', id, op, args, from: this.node };
    await this.redis.pub.publish(this.channel(node), JSON.stringify(request));
    return answer;
  }

  private async receive(raw: string): Promise<void> {
    let message: Request | Reply;
    try {
      message = JSON.parse(raw) as Request | Reply;
    } catch {
      return;
    }
    if (message.t === 'res') {
      const waiter = this.waiting.get(message.id);
      if (!waiter) return;
      this.waiting.delete(message.id);
      clearTimeout(waiter.timer);
      if (message.ok) waiter.resolve(message.value);
      else waiter.reject(new HttpError(message.error?.status ?? 500, message.error?.msg ?? 'Terjadi kesalahan', message.error?.extra ?? {}));
      return;
    }
    const handler = this.handlers.get(message.op);
    let reply: Reply;
    try {
      // A node of another version that does not serve this call: the asking node answers 501.
      if (!handler) throw new HttpError(501, 'Not implemented');
      reply = { t: 'res', id: message.id, ok: true, value: await handler(message.args) };
    } catch (err) {
      if (!(err instanceof HttpError)) this.log(`A forwarded ${message.op} failed`, err);
      reply =
        err instanceof HttpError
          ? { t: 'res', id: message.id, ok: false, error: { status: err.status, msg: err.msg, extra: err.extra } }
          : { t: 'res', id: message.id, ok: false, error: { status: 500, msg: 'Terjadi kesalahan', extra: {} } };
    }
    await this.redis.pub.publish(this.channel(message.from), JSON.stringify(reply)).catch((err: unknown) => this.log('Answering a forwarded call failed', err));
  }
}

const buses = new WeakMap<AppContext, NodeBus>();

/** The node bus of an app with Redis; null on a single node. */
export function nodeBus(ctx: AppContext): NodeBus | null {
  if (!ctx.redis) return null;
  let bus = buses.get(ctx);
  if (!bus) {
    bus = new NodeBus(ctx.redis, leaseKeeper(ctx).node, ctx.log);
    buses.set(ctx, bus);
  }
  return bus;
}
