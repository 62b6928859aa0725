import type { Config } from '../config';
import type { Gateway } from './types';
import { SimulatorGateway } from './simulator/simulator';
import { CloudApiGateway } from './cloud/cloud';
import { RouterGateway } from './router';

/**
 * The gateway the configuration names: the simulator, or (GATEWAY=cloud-api) the WhatsApp Business
 * Cloud API beside it, each device going to the one it belongs to.
 */
export function createGateway(config: Pick<Config, 'gateway' | 'sim' | 'cloud'>, log?: (msg: string, err?: unknown) => void): Gateway {
  const simulator = new SimulatorGateway({ ...config.sim, log });
  switch (config.gateway) {
    case 'simulator':
      return simulator;
    case 'cloud-api':
      return new RouterGateway(simulator, new CloudApiGateway({ baseUrl: config.cloud.baseUrl, ratePerSecond: config.cloud.ratePerSecond, publicUrl: config.cloud.publicUrl, timeoutMs: config.cloud.timeoutMs, log }));
  }
}

/** The Cloud API part of a gateway, or null when the Cloud API is not in use. */
export function cloudGatewayOf(gateway: Gateway): CloudApiGateway | null {
  if (gateway instanceof CloudApiGateway) return gateway;
  if (gateway instanceof RouterGateway) return gateway.cloud;
  return null;
}

/** The simulator part of a gateway (the simulated phone drives it), or null. */
export function simulatorOf(gateway: Gateway): SimulatorGateway | null {
  if (gateway instanceof SimulatorGateway) return gateway;
  if (gateway instanceof RouterGateway) return gateway.simulator;
  return null;
}

export type { Gateway } from './types';
