import type { AppContext } from '../context';
import type { AuthUser } from '../auth/middleware';
import { nodeBus } from '../cluster/bus';
import { pendingLinks, PENDING_TTL_MS } from './pending';

/**
 * Linking sessions across nodes. A device being linked lives in the gateway session of the node that
 * started it (new-client); that node records itself as the link's holder in Redis. The other linking
 * calls (QR, state, wait for the phone, save, remove) may reach any node: a node that does not hold
 * the link forwards the call to the holder and answers with its answer. On one node nothing changes.
 */
const key = (deviceId: string) => `link:${deviceId}`;

/** Records this node as the holder of a link it just started. */
export async function holdLink(ctx: AppContext, deviceId: string): Promise<void> {
  // Without Redis for a moment the link still works through this node (sticky sessions keep a browser here).
  await nodeBus(ctx)
    ?.claim(key(deviceId), PENDING_TTL_MS)
    .catch((err: unknown) => ctx.log('Recording a linking session in Redis failed', err));
}

/** Runs `local` here, or forwards `op` to the node holding the device's link. */
export async function atLinkHolder<T>(
  ctx: AppContext,
  caller: AuthUser,
  deviceId: string,
  op: string,
  args: Record<string, unknown>,
  timeoutMs: number,
  local: () => Promise<T> | T,
): Promise<T> {
  const bus = nodeBus(ctx);
  if (!bus || pendingLinks(ctx).has(deviceId)) return local();
  const holder = await bus.holder(key(deviceId));
  if (!holder || holder === bus.node) return local();
  // The holder trusts the caller this node authenticated; the token itself stays here.
  return (await bus.call(holder, op, { ...args, caller: { ...caller, token: '' }, deviceId }, timeoutMs)) as T;
}

/** What a node answers for links it holds, when another node forwards a call. */
export function serveLinks(
  ctx: AppContext,
  ops: Record<string, (caller: AuthUser, deviceId: string, args: Record<string, unknown>) => Promise<unknown> | unknown>,
): void {
  const bus = nodeBus(ctx);
  if (!bus) return;
  for (const [op, fn] of Object.entries(ops)) {
    bus.handle(op, async (raw) => {
      const { caller, deviceId, ...args } = raw as { caller: AuthUser; deviceId: string } & Record<string, unknown>;
      return fn(caller, deviceId, args);
    });
  }
  bus.start().catch((err: unknown) => ctx.log('Listening for calls from other nodes failed', err));
}
