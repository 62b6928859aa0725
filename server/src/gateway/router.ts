import type { CheckResult, ConnectionState, DeviceIdentity, DeviceSnapshot, Gateway, GatewayListener, LoginMethod, OutgoingMessage, SendResult } from './types';
import type { SimulatorGateway } from './simulator/simulator';
import { isCloudDevice, type CloudApiGateway } from './cloud/cloud';

/**
 * GATEWAY=cloud-api: Cloud API accounts (`cloud-…` device ids) go to the Cloud API, every other
 * device to the simulator, so simulated accounts keep working beside the business numbers.
 */
export class RouterGateway implements Gateway {
  readonly kind = 'cloud-api' as const;

  constructor(
    readonly simulator: SimulatorGateway,
    readonly cloud: CloudApiGateway,
  ) {}

  private pick(deviceId: string): Gateway {
    return isCloudDevice(deviceId) ? this.cloud : this.simulator;
  }

  startSession(deviceId: string, login: LoginMethod, options?: { proxy?: string | null }): Promise<DeviceSnapshot> {
    return this.pick(deviceId).startSession(deviceId, login, options);
  }

  restoreSession(deviceId: string, identity: DeviceIdentity, state: ConnectionState): void {
    this.pick(deviceId).restoreSession(deviceId, identity, state);
  }

  reconnect(deviceId: string): Promise<ConnectionState> {
    return this.pick(deviceId).reconnect(deviceId);
  }

  logout(deviceId: string): Promise<void> {
    return this.pick(deviceId).logout(deviceId);
  }

  removeSession(deviceId: string): void {
    this.pick(deviceId).removeSession(deviceId);
  }

  snapshot(deviceId: string): DeviceSnapshot | null {
    return this.pick(deviceId).snapshot(deviceId);
  }

  sessions(): DeviceSnapshot[] {
    return [...this.simulator.sessions(), ...this.cloud.sessions()];
  }

  inspect(deviceId: string): Record<string, unknown> | null {
    return this.pick(deviceId).inspect(deviceId);
  }

  state(deviceId: string): ConnectionState | null {
    return this.pick(deviceId).state(deviceId);
  }

  send(deviceId: string, message: OutgoingMessage, signal?: AbortSignal): Promise<SendResult> {
    return this.pick(deviceId).send(deviceId, message, signal);
  }

  checkNumber(deviceId: string, number: string): Promise<CheckResult> {
    return this.pick(deviceId).checkNumber(deviceId, number);
  }

  on(listener: GatewayListener): () => void {
    const offs = [this.simulator.on(listener), this.cloud.on(listener)];
    return () => offs.forEach((off) => off());
  }

  close(): void {
    this.simulator.close();
    this.cloud.close();
  }
}
